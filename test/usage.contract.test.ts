/**
 * One contract (test/helpers/usage-store-contract.ts), every usage store: memory, the local server's
 * folder of month files (broken by a file where the folder goes, silenced by holding its lock), Redis
 * over TCP against a real redis-server (stopped, or paused with SIGSTOP so that it holds a write and
 * does it once resumed), and Upstash over HTTP against its stand-in (down or silent), where a write
 * is one HTTP request. Each store of the store table runs it under the name its reports give, and a
 * store without a run here fails.
 */
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { RATE_LIMIT_STORES } from "../api/_adapters/rate-limit-stores.js";
import { REDIS_STORE } from "../api/_adapters/redis-rate-limit.js";
import { redisUsageStore, type RedisUsageStore } from "../api/_adapters/redis-usage-store.js";
import { UPSTASH_STORE } from "../api/_adapters/upstash-rate-limit.js";
import { upstashUsageStore } from "../api/_adapters/upstash-usage-store.js";
import { usageCounter } from "../api/_core/usage/usage-counter.js";
import { memoryUsageStore } from "../api/_core/usage/usage-store.js";
import { takeLock, type Unlock } from "../scripts/files/file-lock.js";
import { fileUsageStore } from "../scripts/server/usage-file.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { startRedis } from "./helpers/redis.js";
import { whenInstalled } from "./helpers/system-tools.js";
import { startUpstashServer } from "./helpers/upstash-server.js";
import { describeUsageStoreContract } from "./helpers/usage-store-contract.js";

describeUsageStoreContract("memory", { fails: false }, async () => {
  const store = memoryUsageStore();
  return { open: () => store };
});

describeUsageStoreContract("the usage folder", { fails: true }, async () => {
  const root = makeTempDir("usage-folder");
  const dir = path.join(root, "usage");
  let unlock: Unlock | undefined;
  return {
    open: () => fileUsageStore(dir),
    failures: {
      // A file where the folder goes: every write fails at once.
      break: async () => {
        rmSync(dir, { recursive: true, force: true });
        writeFileSync(dir, "not a folder");
      },
      // Another process's lock on this month's file: a write waits for it, past its deadline.
      silence: async () => {
        mkdirSync(dir, { recursive: true });
        unlock = await takeLock(path.join(dir, "2026-11.json.lock"), 0);
      },
      mend: async () => {
        unlock?.();
        unlock = undefined;
        if (existsSync(dir) && !statSync(dir).isDirectory()) rmSync(dir);
      },
      recovered: async () => {},
    },
    dispose: async () => removeDir(root),
  };
});

describeUsageStoreContract(UPSTASH_STORE.name, { fails: true }, async () => {
  const server = await startUpstashServer();
  return {
    open: () => upstashUsageStore(server.url, server.token),
    failures: {
      break: async () => server.setMode("down"),
      silence: async () => server.setMode("silent"),
      mend: async () => server.setMode("up"),
      recovered: async () => {},
    },
    dispose: () => server.close(),
  };
});

describeUsageStoreContract(
  REDIS_STORE.name,
  { fails: true },
  async () => {
    const redis = await startRedis();
    const opened: RedisUsageStore[] = [];
    /** Handles a counter closed (a process that stopped): they never reconnect, and are not waited for. */
    const closed = new Set<RedisUsageStore>();
    return {
      open: () => {
        const store = redisUsageStore(redis.url);
        const close = store.close;
        store.close = async () => {
          closed.add(store);
          await close?.();
        };
        opened.push(store);
        return store;
      },
      failures: {
        break: () => redis.stop(),
        silence: () => redis.pause(),
        mend: async () => {
          await redis.resume();
          await redis.start();
        },
        // ioredis reconnects on its own (within a second): wait until every handle has.
        recovered: async () => {
          const deadline = Date.now() + 15_000;
          for (const store of opened)
            while (!closed.has(store) && !(await store.ready()) && Date.now() < deadline)
              await new Promise((resolve) => setTimeout(resolve, 50));
        },
      },
      dispose: async () => {
        await Promise.all(opened.map((store) => store.close?.()));
        await redis.dispose();
      },
    };
  },
  whenInstalled("redis-server"),
);

test("Upstash: a write is one HTTP request, whatever the organizations and days in it", async () => {
  const server = await startUpstashServer();
  try {
    let now = Date.parse("2026-11-30T23:59:59Z");
    const counter = usageCounter({
      store: upstashUsageStore(server.url, server.token),
      timeoutMs: 50,
      clock: () => now,
    });
    for (const organization of ["acme", "globex", "initech"])
      counter.count({ url: "/v1/films", status: 200, bytes: 10, organization });
    now += 1_000;
    counter.count({ url: "/v1/films/x", status: 404, bytes: 10, organization: "acme" });
    await counter.flush();
    expect(Object.fromEntries(server.commands)).toEqual({ EVAL: 1 });
    expect([...server.sets.keys()].sort()).toEqual(["usage-days:2026-11-30", "usage-days:2026-12-01"]);
  } finally {
    await server.close();
  }
});

test("every store of the store table runs the contract", () => {
  expect(RATE_LIMIT_STORES.map((store) => store.name)).toEqual([UPSTASH_STORE.name, REDIS_STORE.name]);
});
