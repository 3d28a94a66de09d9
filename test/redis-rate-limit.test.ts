/**
 * The shared rate limiter (decision: rate limits; docs/operations.md, "Shared rate limits") against
 * a real redis-server: two server processes share one organization's limit, the RateLimit and
 * Retry-After headers agree with the count in Redis, and service continues (counting in memory)
 * while Redis is down, then returns to Redis.
 */
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { redisRateLimiter, type RedisRateLimiter } from "../api/_adapters/redis-rate-limit.js";
import { rateKey } from "../api/_adapters/store-rate-limit.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { entryArgs, startProcess } from "./helpers/child-processes.js";
import { buildDataset, generateDataset } from "./helpers/dataset.js";
import { scaled } from "./helpers/deadlines.js";
import { startRedis, type RedisProcess } from "./helpers/redis.js";
import { whenInstalled } from "./helpers/system-tools.js";

/** A window so long (~31.7 years) that no test run can straddle two of them. */
const LONG_WINDOW = 1_000_000_000;
const ORGS = { shared: 5, headers: 3, warmup: 1_000_000, outage: 100 } as const;
const keyOf = (org: string) => `cl_test_${org}_key`;

function writeAccess(file: string): void {
  const organizations = Object.entries(ORGS).map(([id, requests]) => ({
    id,
    entitlements: [{ plan: "paid", status: "active" }],
    rateLimit: { requests, windowSeconds: LONG_WINDOW },
  }));
  const keys = Object.keys(ORGS).map((id) => ({
    id: `key-${id}`,
    organization: id,
    sha256: createHash("sha256").update(keyOf(id)).digest("hex"),
    revoked: false,
  }));
  writeFileSync(file, JSON.stringify({ organizations, keys }));
}

async function get(base: string, org: string) {
  const response = await fetch(`${base}/v1/attributes`, { headers: { authorization: `Bearer ${keyOf(org)}` } });
  await response.arrayBuffer();
  const rate = /r=(\d+);t=(\d+)/.exec(response.headers.get("ratelimit") ?? "");
  return {
    status: response.status,
    remaining: Number(rate?.[1]),
    reset: Number(rate?.[2]),
    retryAfter: response.headers.get("retry-after"),
  };
}

/** Spawns `scripts/serve.ts` as its own process and resolves with its URL once it listens. */
function spawnServer(
  snapshotDir: string,
  accessFile: string,
  redisUrl: string,
): Promise<{ child: ChildProcess; url: string }> {
  const args = [...entryArgs("scripts/serve.ts"), "--snapshot", snapshotDir, "--access", accessFile, "--port", "0"];
  // A 2 s budget, scaled: on a loaded machine a slow reply must not fall back to memory and skew the count.
  const child = startProcess(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      REDIS_URL: redisUrl,
      REDIS_TIMEOUT_MS: String(Math.min(99_999, scaled(2000))),
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ child, url: match[1]! });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

describe("the Redis rate limiter without a reachable Redis", () => {
  test("counts in memory from the first request and reports the outage once", async () => {
    const events: string[] = [];
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const limiter = redisRateLimiter({ url: "redis://127.0.0.1:1", onStateChange: (m) => events.push(m) });
    const policy = { requests: 2, windowSeconds: 60 };
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await limiter.hit("acme", policy, Date.UTC(2026, 5, 15, 12, 0, 21)));
    await limiter.close();
    expect(decisions.map((d) => [d.allowed, d.remaining, d.resetSeconds])).toEqual([
      [true, 1, 39],
      [true, 0, 39],
      [false, 0, 39],
    ]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatch(
      /^rate limiter: Redis unavailable \(.+\); counting in each instance's memory until it returns$/,
    );
  });
});

describe("the Redis rate limiter", whenInstalled("redis-server"), () => {
  let root: string;
  let snapshotDir: string;
  let accessFile: string;
  let redis: RedisProcess;
  let store: Redis;
  const count = async (org: string) => Number((await store.get(rateKey(org, LONG_WINDOW, Date.now()))) ?? 0);

  beforeAll(async () => {
    root = makeTempDir("redis-limit");
    snapshotDir = path.join(root, "snapshot");
    accessFile = path.join(root, "access.json");
    writeAccess(accessFile);
    [redis] = await Promise.all([
      startRedis(),
      buildDataset(generateDataset({ seed: 3, showtimes: 10 }), root, snapshotDir),
    ]);
    store = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    store.on("error", () => {}); // Redis is stopped on purpose below; the reads that matter retry.
  });
  afterAll(async () => {
    store?.disconnect();
    await redis?.dispose();
    removeDir(root);
  });

  test("two server processes share one organization's limit", async () => {
    const servers = await Promise.all([
      spawnServer(snapshotDir, accessFile, redis.url),
      spawnServer(snapshotDir, accessFile, redis.url),
    ]);
    try {
      // Each process counts in memory until its first connection is up; wait until both count in Redis.
      for (const { url } of servers) {
        const deadline = Date.now() + scaled(15_000);
        for (let before = await count("warmup"); Date.now() < deadline; before = await count("warmup")) {
          await get(url, "warmup");
          if ((await count("warmup")) > before) break;
        }
      }
      const seen = [];
      for (let i = 0; i < 7; i++) seen.push(await get(servers[i % 2]!.url, "shared"));
      expect(seen.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expect(seen.map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
      expect(await count("shared")).toBe(7);
    } finally {
      await Promise.all(servers.map(({ child }) => stopProcess(child)));
    }
  });

  describe("one server process", () => {
    let limiter: RedisRateLimiter;
    let server: Server;
    let url: string;
    const events: string[] = [];

    beforeAll(async () => {
      // A generous deadline: a loaded CI machine must not turn a slow reply into a fail-open count.
      limiter = redisRateLimiter({
        url: redis.url,
        timeoutMs: scaled(1_000),
        onStateChange: (message) => events.push(message),
      });
      expect(await limiter.ready()).toBe(true);
      ({ server, url } = await startServer({ snapshotDir, accessFile, port: 0, limiter, onError: () => {} }));
    });
    afterAll(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
      await limiter?.close();
    });

    test("RateLimit and Retry-After agree with the count and expiry in Redis", async () => {
      for (let i = 1; i <= 5; i++) {
        const response = await get(url, "headers");
        const stored = await count("headers");
        expect(stored).toBe(i);
        expect(response.remaining).toBe(Math.max(0, ORGS.headers - stored));
        expect(response.status).toBe(stored > ORGS.headers ? 429 : 200);
        if (response.status === 429) expect(Number(response.retryAfter)).toBe(response.reset);
        // The counter lives until the window ends (plus a few seconds of grace for clock skew).
        const ttlSeconds = (await store.pttl(rateKey("headers", LONG_WINDOW, Date.now()))) / 1000;
        expect(Math.abs(ttlSeconds - response.reset)).toBeLessThan(10);
      }
    });

    test("service continues while Redis is down, reported once, and counting returns to Redis after", async () => {
      await redis.stop();
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await get(url, "outage")).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect(events.filter((e) => e.includes("unavailable"))).toHaveLength(1);

      await redis.start();
      const deadline = Date.now() + scaled(15_000);
      while ((await count("outage").catch(() => 0)) === 0 && Date.now() < deadline) {
        await get(url, "outage");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await count("outage")).toBeGreaterThan(0);
      expect(events.at(-1)).toMatch(/available again/);
    });
  });
});
