/**
 * One contract (test/helpers/rate-limiter-contract.ts), every rate limiter: the core's memory
 * limiter, Redis over TCP against a real redis-server on loopback (stopped and started again for
 * the outage cases), and Upstash over HTTP against its in-memory stand-in (down, then up again).
 */
import { RETRY_AFTER_OUTAGE_MS, upstashRateLimiter } from "../api/_adapters/upstash-rate-limit.js";
import { redisRateLimiter, type RedisRateLimiter } from "../api/_adapters/redis-rate-limit.js";
import { memoryRateLimiter } from "../api/_core/rate-limit.js";
import { describeRateLimiterContract } from "./helpers/rate-limiter-contract.js";
import { startRedis } from "./helpers/redis.js";
import { whenInstalled } from "./helpers/system-tools.js";
import { startUpstashServer } from "./helpers/upstash-server.js";

describeRateLimiterContract("memory", { shared: false }, async () => ({ make: () => memoryRateLimiter() }));

describeRateLimiterContract("Upstash", { shared: true }, async () => {
  const server = await startUpstashServer();
  const wall = { now: 0 };
  return {
    // A generous budget: on a loaded machine a slow reply must not turn into a fail-open count.
    make: (reports = []) =>
      upstashRateLimiter({
        url: server.url,
        token: server.token,
        timeoutMs: 2_000,
        onStateChange: (message) => reports.push(message),
        clock: () => wall.now,
      }),
    store: {
      break: async () => server.setMode("down"),
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
  "Redis",
  { shared: true },
  async () => {
    const redis = await startRedis();
    const made: RedisRateLimiter[] = [];
    return {
      make: (reports = []) => {
        const limiter = redisRateLimiter({
          url: redis.url,
          commandTimeoutMs: 1_000,
          connectWaitMs: 10_000,
          onStateChange: (message) => reports.push(message),
        });
        made.push(limiter);
        return limiter;
      },
      store: {
        break: () => redis.stop(),
        mend: () => redis.start(),
        // ioredis reconnects on its own (within a second): wait until every instance has.
        recovered: async () => {
          const deadline = Date.now() + 15_000;
          for (const limiter of made)
            while (!(await limiter.ready()) && Date.now() < deadline)
              await new Promise((resolve) => setTimeout(resolve, 50));
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
