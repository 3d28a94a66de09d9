/**
 * A rate limiter whose counts live in Upstash Redis, reached over HTTP (the gateway middleware
 * holds no TCP connection between requests). The same fixed, clock-aligned windows and keys as
 * the Redis limiter; each hit is one round trip: SET the counter with its expiry if it is new,
 * then INCR it, in one transaction. A store that is down or slow fails open: each instance
 * counts in its own memory, and says so once per outage.
 */
import type { RateLimitPolicy } from "./access-file.js";
import { decide, memoryRateLimiter, type RateDecision, type RateLimiter } from "./rate-limit.js";
import { EXPIRY_GRACE_MS, rateKey } from "./redis-rate-limit.js";

export interface UpstashLimiterOptions {
  url: string;
  token: string;
  /** A request waits at most this long for the store before counting in memory. */
  timeoutMs?: number;
  onStateChange?: (message: string) => void;
  /** Milliseconds, for the retry during an outage (tests move it). */
  clock?: () => number;
}

/** An HTTP round trip costs more than a TCP command: a wider budget than Redis's 50 ms. */
export const UPSTASH_TIMEOUT_MS = 150;
/** During an outage one request a second tries the store; the others count in memory without waiting. */
export const RETRY_AFTER_OUTAGE_MS = 1_000;

export function upstashRateLimiter(options: UpstashLimiterOptions): RateLimiter {
  const fallback = memoryRateLimiter();
  const report = options.onStateChange ?? (() => {});
  const timeoutMs = options.timeoutMs ?? UPSTASH_TIMEOUT_MS;
  let healthy = true;
  let triedAt = Number.NEGATIVE_INFINITY;
  const clock = options.clock ?? Date.now;
  const client = import("@upstash/redis").then(
    ({ Redis }) =>
      new Redis({
        url: options.url,
        token: options.token,
        retry: { retries: 0 },
        enableTelemetry: false,
        signal: () => AbortSignal.timeout(timeoutMs),
      }),
  );

  async function count(key: string, ttlMs: number): Promise<number> {
    const transaction = (await client).multi();
    transaction.set(key, 0, { nx: true, px: ttlMs });
    transaction.incr(key);
    const [, counted] = (await transaction.exec()) as [unknown, unknown];
    if (typeof counted !== "number") throw new Error(`unexpected answer ${JSON.stringify(counted)}`);
    return counted;
  }

  return {
    async hit(organizationId: string, policy: RateLimitPolicy, nowMs: number): Promise<RateDecision> {
      if (!healthy && clock() - triedAt < RETRY_AFTER_OUTAGE_MS) return fallback.hit(organizationId, policy, nowMs);
      triedAt = clock();
      try {
        const windowMs = policy.windowSeconds * 1000;
        const counted = await count(
          rateKey(organizationId, policy.windowSeconds, nowMs),
          windowMs - (nowMs % windowMs) + EXPIRY_GRACE_MS,
        );
        if (!healthy) report("rate limiter: Upstash available again; counting in Upstash");
        healthy = true;
        return decide(counted, policy, nowMs);
      } catch (error) {
        if (healthy)
          report(
            `rate limiter: Upstash unavailable (${(error as Error).message}); counting in each instance's memory until it returns`,
          );
        healthy = false;
        return fallback.hit(organizationId, policy, nowMs);
      }
    },
  };
}

/**
 * The Upstash limiter when UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are set (or the
 * KV_REST_API_* names Vercel's marketplace integration sets); undefined otherwise.
 */
export function upstashRateLimiterFromEnvironment(
  env: NodeJS.ProcessEnv,
  onStateChange?: (message: string) => void,
): RateLimiter | undefined {
  const url = env.UPSTASH_REDIS_REST_URL ?? env.KV_REST_API_URL;
  const token = env.UPSTASH_REDIS_REST_TOKEN ?? env.KV_REST_API_TOKEN;
  if (!url || !token) return undefined;
  return upstashRateLimiter({ url, token, onStateChange });
}
