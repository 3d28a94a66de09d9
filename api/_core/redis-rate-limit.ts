/**
 * A rate limiter whose counts live in Redis, so every instance of the API enforces one
 * organization's limit together. Same fixed, clock-aligned windows as the memory
 * limiter: one counter per (organization, window), incremented atomically by a Lua script.
 *
 * Redis is an aid, not a dependency: when it is unreachable or slow, each instance counts in its
 * own memory (fail open, per instance) and says so once per outage. ioredis is imported only when
 * REDIS_URL is set, so deployments without Redis do not pay for it at cold start.
 */
import type { Redis } from "ioredis";
import type { RateLimitPolicy } from "./access-file.js";
import { decide, memoryRateLimiter, type RateDecision, type RateLimiter } from "./rate-limit.js";

export interface RedisLimiterOptions {
  url: string;
  /** A request waits at most this long for Redis before counting in memory. */
  commandTimeoutMs?: number;
  /** How long the first requests of a fresh instance wait for the first connection. */
  connectWaitMs?: number;
  /** Outages and recoveries, one message each (not one per request). */
  onStateChange?: (message: string) => void;
}

export interface RedisRateLimiter extends RateLimiter {
  /** Resolves true once connected, false if not connected within `connectWaitMs`. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** Counts a hit; sets the expiry when the counter has none (its first hit), so old windows vanish. */
const HIT_SCRIPT = `local count = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/** Kept past the window's end, so an instance whose clock is slightly behind still finds its count. */
export const EXPIRY_GRACE_MS = 5_000;

/** `rl:<org>:<windowSeconds>:<windowIndex>`; the last two parts are numbers, so any org id is unambiguous. */
export function rateKey(organizationId: string, windowSeconds: number, nowMs: number): string {
  return `rl:${organizationId}:${windowSeconds}:${Math.floor(nowMs / (windowSeconds * 1000))}`;
}

type HitClient = Redis & { rateHit(key: string, ttlMs: number): Promise<number> };

async function connect(options: RedisLimiterOptions, onError: (error: Error) => void): Promise<HitClient> {
  const { Redis } = await import("ioredis");
  const client = new Redis(options.url, {
    // Fail fast instead of queueing: a request must never wait on a reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 50,
    connectTimeout: 1_000,
    retryStrategy: (times) => Math.min(times * 100, 1_000),
  });
  // Without a listener ioredis prints every failed reconnect; an outage is reported once instead.
  client.on("error", onError);
  client.defineCommand("rateHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
  return client as HitClient;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Creates the shared limiter; the connection starts at once, in the background. */
export function redisRateLimiter(options: RedisLimiterOptions): RedisRateLimiter {
  const fallback = memoryRateLimiter();
  const report = options.onStateChange ?? (() => {});
  let healthy = true;
  let everReady = false;
  const markDown = (reason: string) => {
    if (!healthy) return;
    healthy = false;
    report(`rate limiter: Redis unavailable (${reason}); counting in each instance's memory until it returns`);
  };
  const markUp = () => {
    everReady = true;
    if (healthy) return;
    healthy = true;
    report("rate limiter: Redis available again; counting in Redis");
  };
  const client = connect(options, (error) => markDown(error.message));
  const firstReady = client.then(
    (c) => new Promise<void>((resolve) => (c.status === "ready" ? resolve() : c.once("ready", () => resolve()))),
    (error: Error) => markDown(`cannot load ioredis: ${error.message}`),
  );
  void client.then(
    (c) => c.on("ready", markUp),
    () => {},
  );

  async function isConnected(): Promise<boolean> {
    const c = await client.catch(() => undefined);
    if (!c) return false;
    const isReady = () => c.status === "ready";
    // A fresh instance waits briefly for its first connection; later reconnects are never waited for.
    if (!isReady() && !everReady) await Promise.race([firstReady, delay(options.connectWaitMs ?? 200)]);
    return isReady();
  }

  return {
    async hit(organizationId: string, policy: RateLimitPolicy, nowMs: number): Promise<RateDecision> {
      try {
        if (!(await isConnected())) throw new Error("not connected");
        const windowMs = policy.windowSeconds * 1000;
        const ttlMs = windowMs - (nowMs % windowMs) + EXPIRY_GRACE_MS;
        const count = await (await client).rateHit(rateKey(organizationId, policy.windowSeconds, nowMs), ttlMs);
        markUp();
        return decide(Number(count), policy, nowMs);
      } catch (error) {
        markDown((error as Error).message);
        return fallback.hit(organizationId, policy, nowMs);
      }
    },
    ready: () => isConnected(),
    async close() {
      const c = await client.catch(() => undefined);
      c?.disconnect();
    },
  };
}

/**
 * The shared limiter when REDIS_URL is set (REDIS_TIMEOUT_MS overrides the 50 ms command budget);
 * undefined means the core's in-memory default.
 */
export function rateLimiterFromEnvironment(
  env: NodeJS.ProcessEnv,
  onStateChange?: (message: string) => void,
): RedisRateLimiter | undefined {
  if (!env.REDIS_URL) return undefined;
  const timeout = env.REDIS_TIMEOUT_MS;
  if (timeout !== undefined && !/^[1-9]\d{0,4}$/.test(timeout))
    throw new Error(
      `REDIS_TIMEOUT_MS must be a whole number of milliseconds from 1 to 99999, not ${JSON.stringify(timeout)}`,
    );
  return redisRateLimiter({
    url: env.REDIS_URL,
    commandTimeoutMs: timeout === undefined ? undefined : Number(timeout),
    onStateChange,
  });
}
