/**
 * One contract (test/helpers/rate-limiter-contract.ts), every rate limiter: the core's memory
 * limiter, Redis over TCP against a real redis-server on loopback (stopped and started again, or
 * paused with SIGSTOP so that it holds its connections and never answers, for the outage cases),
 * and Upstash over HTTP against its in-memory stand-in (down or silent, then up again). Each
 * instance's deadline is the contract's, passed by hand. Each store of the store table runs it under
 * the name its reports give, and a store without a run here fails.
 */
import { expect, test } from "vitest";
import { RATE_LIMIT_STORES } from "../api/_adapters/rate-limit-stores.js";
import { RETRY_AFTER_OUTAGE_MS, UPSTASH_STORE, upstashRateLimiter } from "../api/_adapters/upstash-rate-limit.js";
import { REDIS_STORE, redisRateLimiter, type RedisRateLimiter } from "../api/_adapters/redis-rate-limit.js";
import { memoryRateLimiter } from "../api/_core/gate/rate-limit.js";
import { describeRateLimiterContract } from "./helpers/rate-limiter-contract.js";
import { startRedis } from "./helpers/redis.js";
import { whenInstalled } from "./helpers/system-tools.js";
import { startUpstashServer } from "./helpers/upstash-server.js";

describeRateLimiterContract("memory", { shared: false }, async () => ({ make: () => memoryRateLimiter() }));

describeRateLimiterContract(UPSTASH_STORE.name, { shared: true }, async () => {
  const server = await startUpstashServer();
  const wall = { now: 0 };
  return {
    make: (reports = [], wait) =>
      upstashRateLimiter({
        url: server.url,
        token: server.token,
        onStateChange: (message) => reports.push(message),
        clock: () => wall.now,
        wait,
      }),
    store: {
      break: async () => server.setMode("down"),
      silence: async () => server.setMode("silent"),
      mend: async () => server.setMode("up"),
      // During an outage an instance tries the store once a second.
      recovered: async () => {
        wall.now += RETRY_AFTER_OUTAGE_MS;
      },
    },
    dispose: () => server.close(),
  };
});

describeRateLimiterContract(
  REDIS_STORE.name,
  { shared: true },
  async () => {
    const redis = await startRedis();
    const made: RedisRateLimiter[] = [];
    return {
      make: (reports = [], wait) => {
        const limiter = redisRateLimiter({ url: redis.url, onStateChange: (message) => reports.push(message), wait });
        made.push(limiter);
        return limiter;
      },
      store: {
        break: () => redis.stop(),
        silence: () => redis.pause(),
        mend: async () => {
          await redis.resume();
          await redis.start();
        },
        // ioredis reconnects on its own (within a second when idle): wait until every instance has,
        // however long a loaded machine takes (the test's timeout, scaled to the load, is the backstop).
        recovered: async () => {
          for (const limiter of made)
            while (!(await limiter.ready())) await new Promise((resolve) => setTimeout(resolve, 50));
        },
      },
      dispose: async () => {
        await Promise.all(made.map((limiter) => limiter.close()));
        await redis.dispose();
      },
    };
  },
  whenInstalled("redis-server"),
);

test("every store of the store table runs the contract", () => {
  expect(RATE_LIMIT_STORES.map((store) => store.name)).toEqual([UPSTASH_STORE.name, REDIS_STORE.name]);
});
