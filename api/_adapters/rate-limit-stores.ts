/**
 * Every shared store the rate limiter can count in (decision: rate limits), in the order the
 * environment is read: the first whose variables are set is used, none means each instance counts
 * in its own memory. The contract test runs once per row, and the docs' deadlines are read from
 * here, so a new store is its adapter module and a row.
 */
import type { RateLimiter } from "../_core/gate/rate-limit.js";
import { REDIS_STORE, rateLimiterFromEnvironment } from "./redis-rate-limit.js";
import { UPSTASH_STORE, upstashRateLimiterFromEnvironment } from "./upstash-rate-limit.js";

/** What names a store and bounds its wait: the adapter's own, shared with this table. */
export interface StoreIdentity {
  /** As its outage reports name it (any text: reports quote it as it is). */
  readonly name: string;
  /** A hit waits at most this long for the store before counting in memory. */
  readonly timeoutMs: number;
}

export interface RateLimitStore extends StoreIdentity {
  /** Its limiter when the environment selects it; undefined otherwise. */
  fromEnvironment(env: NodeJS.ProcessEnv, onStateChange?: (message: string) => void): RateLimiter | undefined;
}

export const RATE_LIMIT_STORES: readonly RateLimitStore[] = [
  { ...UPSTASH_STORE, fromEnvironment: upstashRateLimiterFromEnvironment },
  { ...REDIS_STORE, fromEnvironment: rateLimiterFromEnvironment },
];

/** The first store the environment selects, in the table's order; undefined: count in memory. */
export function storeLimiterFromEnvironment(
  env: NodeJS.ProcessEnv,
  onStateChange?: (message: string) => void,
): RateLimiter | undefined {
  for (const store of RATE_LIMIT_STORES) {
    const limiter = store.fromEnvironment(env, onStateChange);
    if (limiter) return limiter;
  }
  return undefined;
}
