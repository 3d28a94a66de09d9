/**
 * Usage counted where each request is decided, end to end (decision: usage): known numbers of
 * requests from three organizations (and keys that name none) through the local server and through
 * the Vercel stand-in (scripts/vercel/platform.ts, its CDN cache included) in both forwarding modes,
 * counted in a real redis-server and read back with `npm run usage`'s reader: exactly those, by
 * operation and outcome, with the bytes each answer carried (a CDN hit's as `cdn`, unseen). With the
 * store stopped mid-run every request is still answered and the loss is exactly what was not
 * written, said in one line. A hand-off the gateway cannot make is its own answer, counted as such.
 * On a folder of markets each request counts under its market. `npm run serve` without a store keeps
 * usage in its folder and writes it when stopped; `npm run usage` prints it.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { deployedGateway } from "../api/_adapters/deployed-gateway.js";
import { createGateway } from "../api/_adapters/gateway.js";
import { staticAccess } from "../api/_core/gate/access.js";
import { memoryRateLimiter } from "../api/_core/gate/rate-limit.js";
import { toNodeListener } from "../api/_adapters/node-listener.js";
import { redisUsageFromEnvironment } from "../api/_adapters/redis-usage-store.js";
import { deployedHandle } from "../api/_adapters/vercel.js";
import { type UsageCounter, usageCounter } from "../api/_core/usage/usage-counter.js";
import { memoryUsageStore } from "../api/_core/usage/usage-store.js";
import { send } from "../scripts/vercel/http-checks.js";
import { type Platform, startPlatform } from "../scripts/vercel/platform.js";
import { startServer } from "../scripts/server/local-server.js";
import { runUsage } from "../scripts/usage/run-usage.js";
import { TSX_LOADER, runProcess, startProcess } from "./helpers/child-processes.js";
import { ROOT } from "./helpers/build-helpers.js";
import { useHttpFixture } from "./helpers/http-setup.js";
import { generateDataset } from "./helpers/dataset.js";
import { buildFolder, MARKET_KEYS, serveFolder, writeMarketAccess } from "./helpers/market-servers.js";
import { spreadCountries } from "./helpers/markets.js";
import { startRedis, type RedisProcess } from "./helpers/redis.js";
import { whenInstalled } from "./helpers/system-tools.js";
import { serveWebHandler } from "./helpers/web-listener.js";

const fixture = useHttpFixture();

/** Three paying organizations and one whose plan was cancelled; initech may make two requests in all. */
const ORGANIZATIONS = {
  acme: {},
  globex: {},
  initech: { rateLimit: { requests: 2, windowSeconds: 1_000_000_000 } },
  lapsed: { status: "cancelled" },
} as const;
type Who = keyof typeof ORGANIZATIONS | "unknown" | "none";
const keyOf = (who: Who) => (who === "none" ? undefined : `cl_usage_${who}_5e1d7c`);

function writeAccess(file: string): string {
  const organizations = Object.entries(ORGANIZATIONS).map(([id, extra]) => ({
    id,
    entitlements: [{ plan: "paid", status: "status" in extra ? extra.status : "active" }],
    ...("rateLimit" in extra ? { rateLimit: extra.rateLimit } : {}),
  }));
  const keys = Object.keys(ORGANIZATIONS).map((id) => ({
    id: `key-${id}`,
    organization: id,
    sha256: createHash("sha256")
      .update(keyOf(id as Who)!)
      .digest("hex"),
    revoked: false,
  }));
  writeFileSync(file, JSON.stringify({ organizations, keys }));
  return file;
}

/** One request of a run, with the operation it asks for (the oracle's: written here, not computed). */
interface Sent {
  who: Who;
  path: string;
  operation: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
}

const MCP_CALL = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_attributes" } });
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const get = (who: Who, path: string, operation: string, status: number, times = 1): Sent[] =>
  Array.from({ length: times }, () => ({ who, path, operation, status }));

/** What the oracle counts a status as (docs/decisions.md, usage). */
const BUCKETS: Record<number, string> = { 200: "2xx", 304: "304", 400: "400-404", 401: "400-404", 403: "403" };
const bucketOf = (status: number) => BUCKETS[status] ?? (status === 404 ? "400-404" : status === 429 ? "429" : "5xx");

type Counts = Record<string, [requests: number, bytes: number]>;
const rowKey = (organization: string, operation: string, outcome: string) => `${organization} ${operation} ${outcome}`;

function add(counts: Counts, key: string, bytes: number): void {
  const had = counts[key] ?? [0, 0];
  counts[key] = [had[0] + 1, had[1] + bytes];
}

/**
 * Sends each request in turn and counts what the client saw, the oracle: its organization (none for
 * a key that names none), operation, outcome and the bytes received; `seen` may count it otherwise
 * (a CDN hit). The first 200 of /v1/films gives the entity tag a conditional request sends.
 */
async function sendAll(
  base: string,
  run: Sent[],
  seen: (sent: Sent, index: number, status: number, bytes: number) => [outcome: string, bytes: number] = (
    _,
    __,
    status,
    bytes,
  ) => [bucketOf(status), bytes],
): Promise<Counts> {
  const counts: Counts = {};
  let etag = "";
  for (const [index, sent] of run.entries()) {
    const headers = { ...sent.headers };
    if (headers["if-none-match"] === "<etag>") headers["if-none-match"] = etag;
    const answer = await send(base, sent.path, { method: sent.method, key: keyOf(sent.who), headers, body: sent.body });
    expect([sent.who, sent.method ?? "GET", sent.path, answer.status]).toEqual([
      sent.who,
      sent.method ?? "GET",
      sent.path,
      sent.status,
    ]);
    if (sent.path === "/v1/films" && answer.status === 200) etag ||= answer.headers.etag ?? "";
    const organization = sent.who === "unknown" || sent.who === "none" ? "" : sent.who;
    const [outcome, bytes] = seen(sent, index, answer.status, answer.body.length);
    add(counts, rowKey(organization, sent.operation, outcome), bytes);
  }
  return counts;
}

/** What `npm run usage` reads back (JSON, by day, a day either side of today), summed over days. */
async function readBack(env: NodeJS.ProcessEnv, extra: string[] = []): Promise<Counts> {
  let printed = "";
  const today = new Date();
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const args = ["--from", day(-1), "--to", day(1), "--by", "day", "--format", "json", ...extra];
  await runUsage(args, { env, now: () => today, stdout: (text) => (printed += text) });
  const counts: Counts = {};
  for (const row of JSON.parse(printed).rows) {
    const key = rowKey(row.organization ?? "", row.operation, row.outcome);
    const had = counts[key] ?? [0, 0];
    counts[key] = [had[0] + row.requests, had[1] + row.bytes];
  }
  return counts;
}

/** The local server's run: every outcome, HEAD, an MCP tool, the health check (never counted). */
const LOCAL_RUN: Sent[] = [
  ...get("acme", "/v1/films", "listFilms", 200, 5),
  ...Array.from({ length: 2 }, () => ({
    ...get("acme", "/v1/films", "listFilms", 304)[0]!,
    headers: { "if-none-match": "<etag>" },
  })),
  ...get("acme", "/v1/films/no-such", "getFilm", 404, 3),
  ...get("acme", "/v1/showtimes?limit=101", "listShowtimes", 400),
  ...Array.from({ length: 2 }, () => ({ ...get("acme", "/v1/cinemas", "listCinemas", 200)[0]!, method: "HEAD" })),
  {
    who: "acme",
    method: "POST",
    path: "/mcp",
    operation: "list_attributes",
    headers: MCP_HEADERS,
    body: MCP_CALL,
    status: 200,
  },
  ...get("globex", "/v1/attributes", "listAttributes", 200, 4),
  ...get("globex", "/v1/nope", "other", 404),
  ...get("initech", "/v1/cinemas", "listCinemas", 200, 2),
  ...get("initech", "/v1/cinemas", "listCinemas", 429, 2),
  ...get("lapsed", "/v1/films", "listFilms", 403),
  ...get("unknown", "/v1/films", "listFilms", 401, 2),
  ...get("none", "/v1/films", "listFilms", 401),
];

describe("counted in Redis", whenInstalled("redis-server"), () => {
  let redis: RedisProcess;
  let accessFile: string;
  beforeAll(async () => {
    redis = await startRedis();
    accessFile = writeAccess(path.join(fixture.root, "usage-access.json"));
  });
  afterAll(() => redis?.dispose());
  beforeEach(async () => {
    const client = new Redis(redis.url);
    await client.flushall();
    client.disconnect();
  });

  async function localServer(counter: UsageCounter) {
    const quiet = () => {};
    return startServer({ snapshotDir: fixture.snapshotDir, accessFile, port: 0, usage: counter, onError: quiet });
  }

  function redisCounter(reports: string[] = []) {
    return usageCounter({ ...redisUsageFromEnvironment({ REDIS_URL: redis.url })!, report: (m) => reports.push(m) });
  }

  test("the local server: each organization's requests, by operation and outcome, exactly", async () => {
    const counter = redisCounter();
    const { server, url } = await localServer(counter);
    try {
      const expected = await sendAll(url, LOCAL_RUN);
      expect((await send(url, "/healthz")).status).toBe(200);
      await counter.flush();
      expect(await readBack({ REDIS_URL: redis.url })).toEqual(expected);
      expect(await readBack({ REDIS_URL: redis.url }, ["--org", ""])).toEqual({
        " listFilms 400-404": [3, expected[" listFilms 400-404"]![1]],
      });
    } finally {
      server.close();
      await counter.close();
    }
  });

  test("the store stopped mid-run: every request is answered, and what was not written is the loss said", async () => {
    const reports: string[] = [];
    const counter = redisCounter(reports);
    const { server, url } = await localServer(counter);
    try {
      const before = await sendAll(url, get("acme", "/v1/attributes", "listAttributes", 200, 3));
      await counter.flush();
      expect(await readBack({ REDIS_URL: redis.url })).toEqual(before);
      await redis.stop();
      const after = await sendAll(url, [
        ...get("acme", "/v1/films", "listFilms", 200, 4),
        ...get("globex", "/v1/films", "listFilms", 200),
      ]);
      await counter.flush();
      await counter.close();
      const lostBytes = Object.values(after).reduce((sum, [, bytes]) => sum + bytes, 0);
      expect(counter.lost()).toEqual({ requests: 5, bytes: lostBytes });
      expect(reports[0]).toMatch(
        /^usage: Redis unavailable \(.+\); the counts of 5 requests and whatever is counted meanwhile are held/,
      );
      expect(reports.at(-1)).toMatch(
        new RegExp(
          `^usage: 5 requests \\(${lostBytes} bytes\\) of acme, globex not counted: the process stopped before ` +
            "the store took them \\(Redis: .+\\)$",
        ),
      );
    } finally {
      server.close();
      await redis.start();
    }
  });

  describe("the Vercel stand-in: the gateway counts, cache hits included, and the function settles", () => {
    const ROUTES = [{ src: "^/(v1|_c)(/.*)?$|^/mcp$", middlewarePath: "middleware" }];
    const closers: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const close of closers.splice(0)) await close();
    });

    /** The deployed pair as the platform runs it, in this process; `stop` runs what SIGTERM would. */
    async function deploy(mode: "rewrite" | "fetch") {
      const stops: Array<() => Promise<void>> = [];
      const onStop = (close: () => Promise<void>) => void stops.push(close);
      const env: NodeJS.ProcessEnv = {
        ACCESS_JSON: readFileSync(accessFile, "utf8"),
        SNAPSHOT_DIR: fixture.snapshotDir,
        GATEWAY_SECRET: "a-gateway-secret-of-32-characters-or-more",
        GATEWAY_MODE: mode,
        REDIS_URL: redis.url,
        LOG_LEVEL: "silent",
      };
      const fnServer: Server = createServer(toNodeListener(deployedHandle(env, { onStop })));
      await new Promise<void>((resolve) => fnServer.listen(0, "127.0.0.1", resolve));
      const fnUrl = `http://127.0.0.1:${(fnServer.address() as AddressInfo).port}`;
      const files = {
        manifest: pathToFileURL(path.join(fixture.snapshotDir, "manifest.json")),
        secret: pathToFileURL(path.join(fixture.root, "no-secret-file")),
      };
      const middleware = await serveWebHandler(deployedGateway(env, files, { onStop }));
      const platform: Platform = await startPlatform(ROUTES, middleware.url, fnUrl);
      // Read on the gateway's first request: fetch mode's fixed origin is the platform.
      env.GATEWAY_ORIGIN = platform.url;
      closers.push(platform.close, middleware.close, () => new Promise((resolve) => fnServer.close(() => resolve())));
      return { platform, stop: () => Promise.all(stops.map((stop) => stop())) };
    }

    const VERCEL_RUN: Sent[] = [
      ...get("acme", "/v1/films", "listFilms", 200, 3),
      ...get("globex", "/v1/films", "listFilms", 200, 2),
      { ...get("acme", "/v1/films", "listFilms", 304)[0]!, headers: { "if-none-match": "<etag>" } },
      ...get("acme", "/v1/films/no-such", "getFilm", 404, 2),
      ...get("globex", "/v1/attributes", "listAttributes", 200, 2),
      {
        who: "globex",
        method: "POST",
        path: "/mcp",
        operation: "list_attributes",
        headers: MCP_HEADERS,
        body: MCP_CALL,
        status: 200,
      },
      ...get("initech", "/v1/cinemas", "listCinemas", 200, 2),
      ...get("initech", "/v1/cinemas", "listCinemas", 429),
      ...get("lapsed", "/v1/films", "listFilms", 403),
      ...get("unknown", "/v1/films", "listFilms", 401),
    ];

    test("rewrite mode: what the function answered by its outcome, each CDN hit as cdn", async () => {
      const { platform, stop } = await deploy("rewrite");
      const expected = await sendAll(platform.url, VERCEL_RUN, (_sent, index, status, bytes) =>
        platform.events[index]!.cache === "HIT" ? ["cdn", 0] : [bucketOf(status), bytes],
      );
      const hits = platform.events.filter((event) => event.cache === "HIT").length;
      // The films list (5: two organizations share its entry, its 304 too), attributes and cinemas once each.
      expect(hits).toBe(7);
      await stop();
      expect(await readBack({ REDIS_URL: redis.url })).toEqual(expected);
    });

    test("fetch mode: every answer by its outcome and bytes, cache hits included", async () => {
      const { platform, stop } = await deploy("fetch");
      const expected = await sendAll(platform.url, VERCEL_RUN);
      expect(platform.events.filter((event) => event.served === "HIT").length).toBeGreaterThan(0);
      await stop();
      expect(await readBack({ REDIS_URL: redis.url })).toEqual(expected);
    });
  });
});

describe("the gateway alone", () => {
  test("a hand-off that fails is the gateway's own answer, counted by its outcome, and no cdn is left", async () => {
    const store = memoryUsageStore();
    const counter = usageCounter({ store, timeoutMs: 50 });
    const gateway = createGateway({
      mode: "fetch",
      secret: "a-gateway-secret-of-32-characters-or-more",
      // No fixed origin: fetch mode forwards nothing (a 503), after an MCP message was handed off.
      snapshotId: () => "0".repeat(32),
      access: staticAccess(readFileSync(writeAccess(path.join(fixture.root, "gateway-access.json")), "utf8"), "test"),
      limiter: memoryRateLimiter(),
      now: () => new Date(),
      usage: counter,
    });
    const headers = { ...MCP_HEADERS, authorization: `Bearer ${keyOf("acme")}` };
    const post = new Request("https://api.example/mcp", { method: "POST", headers, body: MCP_CALL });
    const get = new Request("https://api.example/v1/films", { headers: { authorization: headers.authorization } });
    const answers = [await gateway(post), await gateway(get)];
    expect(answers.map((answer) => answer.status)).toEqual([503, 503]);
    await counter.flush();
    const rows = await store.read({ from: "2000-01-01", to: "2100-01-01" });
    expect(rows.map((r) => [r.organization, r.operation, r.outcome, r.requests])).toEqual([
      ["acme", "listFilms", "5xx", 1],
      ["acme", "mcp", "5xx", 1],
    ]);
  });
});

describe("by market, on a folder of markets", () => {
  test("each request under the market that served it; what no market serves under -", async () => {
    const folder = path.join(fixture.root, "markets");
    const markets = [
      { id: "gb", name: "United Kingdom", countries: ["GB"] },
      { id: "fr", name: "France", countries: ["FR"] },
    ];
    await buildFolder(
      spreadCountries(generateDataset({ seed: 7, showtimes: 60, cinemas: 4 }), ["GB", "FR"]),
      folder,
      markets,
    );
    const store = memoryUsageStore();
    const counter = usageCounter({ store, timeoutMs: 50 });
    const running = await serveFolder(folder, writeMarketAccess(fixture.root), { usage: counter, defaultMarket: "gb" });
    const sent: Array<[key: string | undefined, target: string, status: number, counted: string]> = [
      [MARKET_KEYS.every, "/gb/v1/films", 200, "every-co gb listFilms 2xx"],
      [MARKET_KEYS.every, "/gb/v1/films", 200, "every-co gb listFilms 2xx"],
      [MARKET_KEYS.every, "/v1/films", 200, "every-co gb listFilms 2xx"],
      [MARKET_KEYS.every, "/fr/v1/films/no-such", 404, "every-co fr getFilm 400-404"],
      [MARKET_KEYS.gb, "/fr/v1/films", 403, "gb-co fr listFilms 403"],
      [MARKET_KEYS.every, "/markets", 200, "every-co - listMarkets 2xx"],
      [MARKET_KEYS.every, "/xx/v1/films", 404, "every-co - listFilms 400-404"],
      [undefined, "/fr/v1/films", 401, " fr listFilms 400-404"],
    ];
    const expected: Record<string, number> = {};
    try {
      for (const [key, target, status, counted] of sent) {
        expect([target, (await send(running.url, target, { key })).status]).toEqual([target, status]);
        expected[counted] = (expected[counted] ?? 0) + 1;
      }
    } finally {
      await running.close();
    }
    await counter.flush();
    const rows = await store.read({ from: "2000-01-01", to: "2100-01-01" });
    const read = Object.fromEntries(
      rows.map((r) => [`${r.organization} ${r.market} ${r.operation} ${r.outcome}`, r.requests]),
    );
    expect(read).toEqual(expected);
  });
});

describe("npm run serve without a store, then npm run usage", () => {
  test("keeps usage in its folder, writes it when stopped, and prints it as a table and as CSV", async () => {
    const dir = path.join(fixture.root, "usage-folder");
    const accessFile = writeAccess(path.join(fixture.root, "serve-access.json"));
    const env = { ...process.env, USAGE_DIR: dir, LOG_LEVEL: "silent", REDIS_URL: "", UPSTASH_REDIS_REST_URL: "" };
    const args = ["--snapshot", fixture.snapshotDir, "--access", accessFile, "--port", "0"];
    const child = startProcess(process.execPath, ["--import", TSX_LOADER, "scripts/serve.ts", ...args], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once("exit", (code) => reject(new Error(`serve exited with ${code}`)));
    });
    const expected = await sendAll(url, [
      ...get("acme", "/v1/films", "listFilms", 200, 2),
      ...get("unknown", "/v1/films", "listFilms", 401),
    ]);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    expect(await readBack({ USAGE_DIR: dir })).toEqual(expected);
    const month = new Date().toISOString().slice(0, 7);
    const printed = await runProcess(
      process.execPath,
      ["--import", TSX_LOADER, "scripts/usage.ts", "--from", month, "--to", month, "--format", "csv"],
      {
        env: { ...env },
      },
    );
    expect(printed).toMatchObject({ code: 0, stderr: "" });
    const [acmeBytes, keylessBytes] = [expected["acme listFilms 2xx"]![1], expected[" listFilms 400-404"]![1]];
    expect(printed.stdout).toBe(
      "period,market,organization,operation,outcome,requests,bytes\n" +
        `${month},default,,listFilms,400-404,1,${keylessBytes}\n` +
        `${month},default,acme,listFilms,2xx,2,${acmeBytes}\n`,
    );
  });
});
