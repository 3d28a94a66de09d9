/**
 * Shared rate limits through Upstash over HTTP (operations: shared rate limits), against an
 * in-memory Upstash-compatible server: what is Upstash's own beyond the contract every limiter
 * meets (test/rate-limit.contract.test.ts): counters expire in the store, a store that is down or
 * refuses the token fails open, a request the store never answers is cancelled at the deadline,
 * one attempt a second during an outage, and the environment that selects it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { memoryRateLimiter } from "../api/_core/gate/rate-limit.js";
import { rateKey } from "../api/_adapters/store-rate-limit.js";
import {
  RETRY_AFTER_OUTAGE_MS,
  upstashRateLimiter,
  upstashRateLimiterFromEnvironment,
} from "../api/_adapters/upstash-rate-limit.js";
import { manualDeadlines } from "./helpers/rate-limiter-contract.js";
import { startUpstashServer, type UpstashServer } from "./helpers/upstash-server.js";

const POLICY = { requests: 3, windowSeconds: 60 };
const T0 = Date.UTC(2026, 10, 23, 12, 0, 10);

let store: UpstashServer;
beforeAll(async () => {
  store = await startUpstashServer();
});
afterAll(() => store.close());
beforeEach(() => {
  store.values.clear();
  store.setMode("up");
});

const wall = { now: 0 };

/** Resolves once `condition` holds, checking every few milliseconds (a socket's news takes a turn of the loop). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
// A deadline passed by hand: on a loaded machine a slow reply must not turn into a fail-open count
// (the wall clock here never moves, so an instance that failed once would never try the store again).
const limiter = (messages: string[] = [], token = store.token, wait = manualDeadlines().wait) =>
  upstashRateLimiter({
    url: store.url,
    token,
    onStateChange: (m) => messages.push(m),
    clock: () => wall.now,
    wait,
  });

describe("an Upstash-shared rate limit", () => {
  test("the next window counts afresh; a counter expires at its window's end plus the grace", async () => {
    const a = limiter();
    for (let i = 0; i < 4; i++) await a.hit("acme", POLICY, T0);
    expect((await a.hit("acme", POLICY, T0 + 50_000)).allowed).toBe(true);
    const key = rateKey("acme", 60, T0);
    store.clock.now = 50_000 + 5_000 - 1;
    expect(store.values.has(key) && store.values.get(key)!.expiresAt).toBe(55_000);
    expect((await a.hit("acme", POLICY, T0)).allowed).toBe(false);
    // Once expired, the same window's counter starts again: the store forgot it.
    store.clock.now = 55_000;
    expect((await a.hit("acme", POLICY, T0)).remaining).toBe(2);
  });

  test.each<[string, (messages: string[]) => ReturnType<typeof limiter>, () => void]>([
    ["a store that is down", (m) => limiter(m), () => store.setMode("down")],
    ["a wrong token", (m) => limiter(m, "wrong"), () => {}],
  ])("%s: fails open, counting in memory like the memory limiter, reported once", async (_what, make, breakIt) => {
    const messages: string[] = [];
    const shared = make(messages);
    breakIt();
    const memory = memoryRateLimiter();
    for (let i = 0; i < 5; i++) {
      const decision = await shared.hit("acme", POLICY, T0);
      expect(decision).toEqual(memory.hit("acme", POLICY, T0));
    }
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^rate limiter: Upstash unavailable \(.+\); counting in each instance's memory/);
  });

  test("a store that never answers: its request is cancelled at the deadline, no connection left waiting", async () => {
    const messages: string[] = [];
    const deadlines = manualDeadlines();
    const a = limiter(messages, store.token, deadlines.wait);
    store.setMode("silent");
    const decision = a.hit("acme", POLICY, T0);
    await until(() => store.held() === 1);
    deadlines.pass();
    expect((await decision).remaining).toBe(2);
    await until(() => store.held() === 0);
    expect(messages).toEqual([
      "rate limiter: Upstash unavailable (no answer within 150 ms); counting in each instance's memory " +
        "until it returns",
    ]);
  });

  test(
    "during an outage one request a second tries the store; back, it counts there again, reported " + "once",
    async () => {
      const messages: string[] = [];
      const a = limiter(messages);
      store.setMode("down");
      await a.hit("acme", POLICY, T0);
      store.setMode("up");
      // Within the second after the failure: still in memory (its second hit), the store untried.
      expect((await a.hit("acme", POLICY, T0)).remaining).toBe(1);
      expect(store.values.size).toBe(0);
      wall.now += RETRY_AFTER_OUTAGE_MS;
      expect((await a.hit("acme", POLICY, T0)).remaining).toBe(2);
      await a.hit("acme", POLICY, T0);
      expect(messages).toEqual([
        expect.stringMatching(/unavailable/),
        "rate limiter: Upstash available again; counting in Upstash",
      ]);
    },
  );
});

describe("upstashRateLimiterFromEnvironment", () => {
  test.each<[string, Record<string, string>, boolean]>([
    ["nothing set", {}, false],
    ["a URL without a token", { UPSTASH_REDIS_REST_URL: "http://x" }, false],
    ["a token without a URL", { KV_REST_API_TOKEN: "t" }, false],
  ])("%s: none", (_what, env, made) => {
    expect(upstashRateLimiterFromEnvironment(env) !== undefined).toBe(made);
  });

  test.each([
    ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN"],
    ["KV_REST_API_URL", "KV_REST_API_TOKEN"],
  ])("%s and %s: counts in the store", async (urlName, tokenName) => {
    const made = upstashRateLimiterFromEnvironment({ [urlName]: store.url, [tokenName]: store.token })!;
    await made.hit("env-co", POLICY, T0);
    expect(store.values.get(rateKey("env-co", 60, T0))?.value).toBe("1");
  });
});
