/**
 * Every shared store the rate limiter can count in (decision: rate limits) and usage is kept in
 * (decision: usage), in the order the environment is read: the first whose variables are set is
 * used, none means each instance counts in its own memory (and the local server keeps usage in a
 * file). The contract tests run once per row, and the docs' deadlines are read from here, so a new
 * store is its adapter modules and a row.
 */
import type { RateLimiter } from "../_core/gate/rate-limit.js";
import type { SelectedUsageStore } from "../_core/usage/usage-store.js";
import { REDIS_STORE, rateLimiterFromEnvironment } from "./redis-rate-limit.js";
import { redisUsageFromEnvironment } from "./redis-usage-store.js";
import { UPSTASH_STORE, upstashRateLimiterFromEnvironment } from "./upstash-rate-limit.js";
import { upstashUsageFromEnvironment } from "./upstash-usage-store.js";

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
  /** Its usage store when the environment selects it (the same variables); undefined otherwise. */
  usageFromEnvironment(env: NodeJS.ProcessEnv): SelectedUsageStore | undefined;
}

export const RATE_LIMIT_STORES: readonly RateLimitStore[] = [
  {
    ...UPSTASH_STORE,
    fromEnvironment: upstashRateLimiterFromEnvironment,
    usageFromEnvironment: upstashUsageFromEnvironment,
  },
  { ...REDIS_STORE, fromEnvironment: rateLimiterFromEnvironment, usageFromEnvironment: redisUsageFromEnvironment },
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

/** The usage store of the first row the environment selects; undefined: no shared store. */
export function usageStoreFromEnvironment(env: NodeJS.ProcessEnv): SelectedUsageStore | undefined {
  for (const store of RATE_LIMIT_STORES) {
    const selected = store.usageFromEnvironment(env);
    if (selected) return selected;
  }
  return undefined;
}
