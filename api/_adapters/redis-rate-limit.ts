/**
 * Shared rate limits in Redis over TCP (self-hosting; REDIS_URL): the counter store behind
 * store-rate-limit.ts, which holds the windows, the deadline (REDIS_TIMEOUT_MS), the fail-open and
 * the outage reports. Each hit is one Lua script (INCR, and PEXPIRE on a new counter), over a
 * connection that never queues (redis-connection.ts): while not connected a hit fails at once (and
 * counts in memory); a fresh instance waits for its first connection attempt, within the deadline.
 * A command that misses the deadline is left to its connection (shared, so not closed for one late
 * answer).
 */
import type { Redis } from "ioredis";
import type { RateLimiter } from "../_core/gate/rate-limit.js";
import { redisConnection } from "./redis-connection.js";
import { type CounterStore, storeRateLimiter, type Wait } from "./store-rate-limit.js";

export interface RedisLimiterOptions {
  url: string;
  /** A request waits at most this long for Redis before counting in memory. */
  timeoutMs?: number;
  /** Outages and recoveries, one message each (not one per request). */
  onStateChange?: (message: string) => void;
  /** The deadline's timer (tests pass one they move by hand). */
  wait?: Wait;
}

/** A TCP command on the same network: a narrower budget than Upstash's HTTP round trip. */
export const REDIS_TIMEOUT_MS = 50;
/** Its row's identity in the store table (rate-limit-stores.ts). */
export const REDIS_STORE = { name: "Redis", timeoutMs: REDIS_TIMEOUT_MS } as const;

export interface RedisRateLimiter extends RateLimiter {
  /** Resolves true once connected; false if the first connection attempt failed, or the connection is down. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** Counts a hit; sets the expiry when the counter has none (its first hit), so old windows vanish. */
const HIT_SCRIPT = `local count = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

type HitClient = Redis & { rateHit(key: string, ttlMs: number): Promise<number> };

/** The Redis counter store; the connection starts at once, in the background. */
function redisStore(options: RedisLimiterOptions): CounterStore & Pick<RedisRateLimiter, "ready" | "close"> {
  const connection = redisConnection(options.url, { rateHit: { lua: HIT_SCRIPT, keys: 1 } });
  return {
    name: REDIS_STORE.name,
    async increment(key, ttlMs) {
      const client = (await connection.connected()) as HitClient;
      return Number(await client.rateHit(key, ttlMs));
    },
    ready: connection.ready,
    close: connection.close,
  };
}

/** A limiter counting in Redis (every request tries it: a disconnected client fails at once). */
export function redisRateLimiter(options: RedisLimiterOptions): RedisRateLimiter {
  const store = redisStore(options);
  const limiter = storeRateLimiter(store, {
    timeoutMs: options.timeoutMs ?? REDIS_TIMEOUT_MS,
    wait: options.wait,
    onStateChange: options.onStateChange,
  });
  return { hit: limiter.hit, ready: store.ready, close: store.close };
}

/** REDIS_TIMEOUT_MS, the deadline of every Redis store (the limiter's and usage's); undefined: the 50 ms default. */
export function redisTimeoutFromEnvironment(env: NodeJS.ProcessEnv): number | undefined {
  const timeout = env.REDIS_TIMEOUT_MS;
  if (timeout !== undefined && !/^[1-9]\d{0,4}$/.test(timeout))
    throw new Error(
      `REDIS_TIMEOUT_MS must be a whole number of milliseconds from 1 to 99999, not ${JSON.stringify(timeout)}`,
    );
  return timeout === undefined ? undefined : Number(timeout);
}

/**
 * The shared limiter when REDIS_URL is set (REDIS_TIMEOUT_MS overrides the 50 ms deadline);
 * undefined means the core's in-memory default.
 */
export function rateLimiterFromEnvironment(
  env: NodeJS.ProcessEnv,
  onStateChange?: (message: string) => void,
): RedisRateLimiter | undefined {
  if (!env.REDIS_URL) return undefined;
  return redisRateLimiter({ url: env.REDIS_URL, timeoutMs: redisTimeoutFromEnvironment(env), onStateChange });
}
