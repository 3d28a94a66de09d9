/**
 * A rate limiter whose counts live in a shared store (decision: rate limits), so every instance
 * enforces one organization's limit together: the same fixed, clock-aligned windows as the core's
 * memory limiter, one counter per (organization, window), kept a little past its window's end.
 * The store is an adapter (redis-rate-limit.ts over TCP, upstash-rate-limit.ts over HTTP) that
 * only counts; what every store shares is here, written once:
 *
 * - one deadline: a hit waits at most `timeoutMs` for the store, whatever the store (an adapter
 *   needs no timer of its own; it may cancel its request when the signal it is given aborts);
 * - fail open: when the store fails or misses the deadline, each instance counts in its own memory
 *   (limits then apply per instance) and keeps serving;
 * - one report per outage and one when the store is back, never one per request;
 * - during an outage, at most one attempt per `retryAfterOutageMs`, so the other requests never
 *   wait on a store that is down.
 */
import type { RateLimitPolicy } from "../_core/gate/access-file.js";
import { problemReport } from "../_core/log/problem-report.js";
import { decide, memoryRateLimiter, type RateDecision, type RateLimiter } from "../_core/gate/rate-limit.js";

/** A shared counter store: the only thing an adapter provides. */
export interface CounterStore {
  /** Names the store in reports ("Redis", "Upstash"). */
  name: string;
  /**
   * Adds one to `key`, creating it to expire in `ttlMs` if it is new; resolves with the count, or
   * rejects (unreachable, refused) with the reason. `signal` aborts when the limiter stops waiting
   * (the deadline passed, or the answer came): a request still open may be cancelled then.
   */
  increment(key: string, ttlMs: number, signal: AbortSignal): Promise<number>;
}

/** Resolves once `ms` have passed, unless `signal` aborts first (then never). */
export type Wait = (ms: number, signal: AbortSignal) => Promise<void>;

export interface StoreLimiterOptions {
  /** A hit waits at most this long for the store before counting in memory: the one deadline. */
  timeoutMs: number;
  /** The deadline's timer (tests pass one they move by hand). */
  wait?: Wait;
  /** Outages and recoveries, one message each. */
  onStateChange?: (message: string) => void;
  /** During an outage, milliseconds between attempts; 0: every request tries (a store that fails fast). */
  retryAfterOutageMs?: number;
  /** Milliseconds, for the attempts during an outage (tests move it). */
  clock?: () => number;
}

/** Kept past the window's end, so an instance whose clock is slightly behind still finds its count. */
export const EXPIRY_GRACE_MS = 5_000;

/** `rl:<org>:<windowSeconds>:<windowIndex>`; the last two parts are numbers, so any org id is unambiguous. */
export function rateKey(organizationId: string, windowSeconds: number, nowMs: number): string {
  return `rl:${organizationId}:${windowSeconds}:${Math.floor(nowMs / (windowSeconds * 1000))}`;
}

const waitOnTimers: Wait = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  });

/** The store's count, or a rejection naming the deadline once `timeoutMs` pass without one. */
async function incrementWithin(
  store: CounterStore,
  key: string,
  ttlMs: number,
  options: StoreLimiterOptions,
): Promise<number> {
  const done = new AbortController();
  const deadline = (options.wait ?? waitOnTimers)(options.timeoutMs, done.signal).then(() => {
    throw new Error(`no answer within ${options.timeoutMs} ms`);
  });
  try {
    return await Promise.race([store.increment(key, ttlMs, done.signal), deadline]);
  } finally {
    done.abort();
  }
}

export function storeRateLimiter(store: CounterStore, options: StoreLimiterOptions): RateLimiter {
  const fallback = memoryRateLimiter();
  const outage = problemReport(options.onStateChange);
  const clock = options.clock ?? Date.now;
  const retryAfterMs = options.retryAfterOutageMs ?? 0;
  let triedAt = Number.NEGATIVE_INFINITY;

  return {
    async hit(organizationId: string, policy: RateLimitPolicy, nowMs: number): Promise<RateDecision> {
      if (outage.failing && clock() - triedAt < retryAfterMs) return fallback.hit(organizationId, policy, nowMs);
      triedAt = clock();
      const windowMs = policy.windowSeconds * 1000;
      try {
        const ttlMs = windowMs - (nowMs % windowMs) + EXPIRY_GRACE_MS;
        const count = await incrementWithin(
          store,
          rateKey(organizationId, policy.windowSeconds, nowMs),
          ttlMs,
          options,
        );
        outage.resolved(`rate limiter: ${store.name} available again; counting in ${store.name}`);
        return decide(count, policy, nowMs);
      } catch (error) {
        const reason = (error as Error).message;
        outage.problem(
          `rate limiter: ${store.name} unavailable (${reason}); counting in each instance's memory until it returns`,
          "unavailable",
        );
        return fallback.hit(organizationId, policy, nowMs);
      }
    },
  };
}
