/**
 * What every store-backed limiter shares, written once (api/_adapters/store-rate-limit.ts), over a
 * scripted store: the key and expiry it asks for, fail open to memory, one report per outage
 * however its reason changes, one when the store is back, the attempts made during an outage, and
 * the one deadline a hit waits for the store (on fake timers: nothing waits for real).
 * And the report-once rule itself (api/_core/log/problem-report.ts).
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { EXPIRY_GRACE_MS, rateKey, storeRateLimiter } from "../api/_adapters/store-rate-limit.js";
import { problemReport } from "../api/_core/log/problem-report.js";
import { memoryRateLimiter } from "../api/_core/gate/rate-limit.js";

const POLICY = { requests: 2, windowSeconds: 60 };
const T0 = Date.UTC(2026, 10, 23, 12, 0, 10);

const TIMEOUT_MS = 150;

/** A store that counts in a map, fails with the reason a test sets, or (silent) holds each call until `answer`. */
function scriptedStore() {
  const counts = new Map<string, number>();
  const calls: Array<[string, number]> = [];
  const signals: AbortSignal[] = [];
  const held: Array<() => void> = [];
  const state = { failure: undefined as string | undefined, silent: false };
  return {
    counts,
    calls,
    signals,
    state,
    /** Answers every held call now (a store answering late). */
    answer: () => held.splice(0).forEach((release) => release()),
    store: {
      name: "Scripted",
      async increment(key: string, ttlMs: number, signal: AbortSignal) {
        calls.push([key, ttlMs]);
        signals.push(signal);
        if (state.silent) await new Promise<void>((release) => held.push(release));
        if (state.failure) throw new Error(state.failure);
        const count = (counts.get(key) ?? 0) + 1;
        counts.set(key, count);
        return count;
      },
    },
  };
}

describe("a store-backed limiter", () => {
  test("asks the store for the window's counter, kept to the window's end plus the grace", async () => {
    const { store, calls } = scriptedStore();
    const decision = await storeRateLimiter(store, { timeoutMs: TIMEOUT_MS }).hit("acme", POLICY, T0);
    expect(calls).toEqual([[rateKey("acme", 60, T0), 50_000 + EXPIRY_GRACE_MS]]);
    expect(rateKey("acme", 60, T0)).toBe(`rl:acme:60:${Math.floor(T0 / 60_000)}`);
    expect(decision).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 50 });
  });

  test("one report per outage however its reason changes, one when it ends; memory's decisions meanwhile", async () => {
    const { store, state } = scriptedStore();
    const reports: string[] = [];
    const limiter = storeRateLimiter(store, { timeoutMs: TIMEOUT_MS, onStateChange: (m) => reports.push(m) });
    const memory = memoryRateLimiter();
    for (const reason of ["connection refused", "timed out", "connection refused"]) {
      state.failure = reason;
      expect(await limiter.hit("acme", POLICY, T0)).toEqual(memory.hit("acme", POLICY, T0));
    }
    state.failure = undefined;
    await limiter.hit("acme", POLICY, T0);
    await limiter.hit("acme", POLICY, T0);
    state.failure = "down again";
    await limiter.hit("acme", POLICY, T0);
    expect(reports).toEqual([
      "rate limiter: Scripted unavailable (connection refused); counting in each instance's memory until it returns",
      "rate limiter: Scripted available again; counting in Scripted",
      "rate limiter: Scripted unavailable (down again); counting in each instance's memory until it returns",
    ]);
  });

  test.each([
    [0, [1, 2, 3, 4]],
    [1_000, [1, 1, 1, 2]],
  ])(
    "with retryAfterOutageMs %i, the store is tried on these hits of an outage: %j",
    async (retryAfterOutageMs, tried) => {
      const { store, state, calls } = scriptedStore();
      const clock = { now: 0 };
      const limiter = storeRateLimiter(store, { timeoutMs: TIMEOUT_MS, retryAfterOutageMs, clock: () => clock.now });
      state.failure = "down";
      const triedBy: number[] = [];
      for (const at of [0, 500, 999, 1_000]) {
        clock.now = at;
        await limiter.hit("acme", POLICY, T0);
        triedBy.push(calls.length);
      }
      expect(triedBy).toEqual(tried);
    },
  );
});

describe("the deadline of a store-backed limiter", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test.each([
    [TIMEOUT_MS - 1, "waiting"],
    [TIMEOUT_MS, "memory's decision"],
  ])("a store that never answers, %i ms after the hit: %s", async (elapsedMs, expected) => {
    vi.useFakeTimers();
    const { store, state } = scriptedStore();
    state.silent = true;
    let decided: unknown = "waiting";
    const hit = storeRateLimiter(store, { timeoutMs: TIMEOUT_MS }).hit("acme", POLICY, T0);
    void Promise.resolve(hit).then((decision) => (decided = decision));
    await vi.advanceTimersByTimeAsync(elapsedMs);
    expect(decided).toEqual(expected === "waiting" ? "waiting" : memoryRateLimiter().hit("acme", POLICY, T0));
  });

  test(
    "at the deadline the store's signal aborts, the outage is reported with it, and a late answer " + "changes nothing",
    async () => {
      vi.useFakeTimers();
      const { store, state, signals, counts, answer } = scriptedStore();
      const reports: string[] = [];
      const limiter = storeRateLimiter(store, { timeoutMs: TIMEOUT_MS, onStateChange: (m) => reports.push(m) });
      state.silent = true;
      const decision = limiter.hit("acme", POLICY, T0);
      await vi.advanceTimersByTimeAsync(TIMEOUT_MS);
      expect(signals[0]!.aborted).toBe(true);
      expect(await decision).toMatchObject({ allowed: true, remaining: 1 });
      answer();
      await vi.runAllTimersAsync();
      expect(counts.get(rateKey("acme", 60, T0))).toBe(1);
      expect(reports).toEqual([
        "rate limiter: Scripted unavailable (no answer within 150 ms); counting in each instance's memory " +
          "until it returns",
      ]);
    },
  );

  test("an answer before the deadline is the decision, and its deadline is cleared", async () => {
    vi.useFakeTimers();
    const { store } = scriptedStore();
    const limiter = storeRateLimiter(store, { timeoutMs: TIMEOUT_MS });
    for (let i = 0; i < 3; i++) await limiter.hit("acme", POLICY, T0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("problemReport", () => {
  test("a problem once until it changes, its end once, nothing when nothing was wrong", () => {
    const lines: string[] = [];
    const report = problemReport((m) => lines.push(m));
    report.resolved("fine again");
    report.problem("a");
    report.problem("a");
    report.problem("a, said otherwise", "a");
    expect(report.failing).toBe(true);
    report.problem("b");
    report.resolved("fine again");
    report.resolved("fine again");
    expect(report.failing).toBe(false);
    expect(lines).toEqual(["a", "b", "fine again"]);
  });
});
