/**
 * What every store-backed limiter shares, written once (api/_adapters/store-rate-limit.ts), over a
 * scripted store: the key and expiry it asks for, fail open to memory, one report per outage
 * however its reason changes, one when the store is back, and the attempts made during an outage.
 * And the report-once rule itself (api/_core/problem-report.ts).
 */
import { describe, expect, test } from "vitest";
import { EXPIRY_GRACE_MS, rateKey, storeRateLimiter } from "../api/_adapters/store-rate-limit.js";
import { problemReport } from "../api/_core/problem-report.js";
import { memoryRateLimiter } from "../api/_core/rate-limit.js";

const POLICY = { requests: 2, windowSeconds: 60 };
const T0 = Date.UTC(2026, 10, 23, 12, 0, 10);

/** A store that counts in a map, or fails with the reason a test sets. */
function scriptedStore() {
  const counts = new Map<string, number>();
  const calls: Array<[string, number]> = [];
  const state = { failure: undefined as string | undefined };
  return {
    counts,
    calls,
    state,
    store: {
      name: "Scripted",
      async increment(key: string, ttlMs: number) {
        calls.push([key, ttlMs]);
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
    const decision = await storeRateLimiter(store).hit("acme", POLICY, T0);
    expect(calls).toEqual([[rateKey("acme", 60, T0), 50_000 + EXPIRY_GRACE_MS]]);
    expect(rateKey("acme", 60, T0)).toBe(`rl:acme:60:${Math.floor(T0 / 60_000)}`);
    expect(decision).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 50 });
  });

  test("one report per outage however its reason changes, one when it ends; memory's decisions meanwhile", async () => {
    const { store, state } = scriptedStore();
    const reports: string[] = [];
    const limiter = storeRateLimiter(store, { onStateChange: (m) => reports.push(m) });
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
      const limiter = storeRateLimiter(store, { retryAfterOutageMs, clock: () => clock.now });
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
