/**
 * One connection to Redis over TCP as the shared stores use it (REDIS_URL: the rate limiter's
 * counters, usage): ioredis, imported only when a store is made, so deployments without Redis do not
 * pay for it at cold start. Commands are never queued on a reconnect: while not connected a command
 * fails at once; a fresh connection waits for its first attempt (the caller's deadline bounds it).
 */
import type { Redis } from "ioredis";

/** A Lua script run as a command of its own name; `keys` undefined: the first argument says how many. */
export interface RedisScript {
  lua: string;
  keys?: number;
}

export interface RedisConnection {
  /** The client once connected; rejects with why it is not (the last connection error). */
  connected(): Promise<Redis>;
  /** Resolves true once connected; false if the first connection attempt failed, or the connection is down. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

async function connect(url: string, scripts: Record<string, RedisScript>, onError: (error: Error) => void) {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    // Fail fast instead of queueing: a request must never wait on a reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    retryStrategy: (times) => Math.min(times * 100, 1_000),
  });
  // Without a listener ioredis prints every failed reconnect; the stores report an outage once.
  client.on("error", onError);
  for (const [name, { lua, keys }] of Object.entries(scripts)) client.defineCommand(name, { numberOfKeys: keys, lua });
  return client;
}

/** Connects in the background at once. */
export function redisConnection(url: string, scripts: Record<string, RedisScript>): RedisConnection {
  /** Why the last connection attempt failed: the reason an outage is reported with. */
  let lastError = "not connected";
  let everReady = false;
  const client = connect(url, scripts, (error) => {
    lastError = error.message;
  });
  client.catch((error: Error) => {
    lastError = `cannot load ioredis: ${error.message}`;
  });
  /** Settles when the first connection attempt does: connected, or failed with its reason. */
  const firstAttempt = client.then(
    (c) =>
      new Promise<void>((resolve) => {
        if (c.status === "ready") return resolve();
        c.once("ready", () => resolve());
        c.once("error", () => resolve());
      }),
    () => {},
  );

  async function ready(): Promise<boolean> {
    const c = await client.catch(() => undefined);
    if (!c) return false;
    // A fresh connection waits for its first attempt; later reconnects are never waited for.
    if (c.status !== "ready" && !everReady) await firstAttempt;
    everReady ||= c.status === "ready";
    return c.status === "ready";
  }

  return {
    async connected() {
      if (!(await ready())) throw new Error(lastError);
      return client;
    },
    ready,
    async close() {
      const c = await client.catch(() => undefined);
      c?.disconnect();
    },
  };
}
