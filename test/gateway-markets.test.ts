/**
 * The gateway in a deployment with markets (decision: markets, deployed per market): reading the
 * bundled markets' index, it routes `/{market}/v1/...` and `/{market}/mcp` as the core does, decides
 * the entitlement per market before forwarding (403 with details.market), forwards to the internal
 * path of that market's snapshot id (each market's function holding its market alone), answers the
 * core's 404s naming the markets, serves `/v1` by the default market, and counts usage under the
 * market. `GET /markets` it answers itself from the index (each market's summary in it), and a
 * market's function answers MCP's list_markets from its bundled index, `entitled` as the gateway
 * decided it. The deployed pair answers as the one-process core on the whole folder, request ids
 * aside, per key; an index that cannot be read, or does not say what the markets hold, is a 503.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGateway, type Forward, type Gateway } from "../api/_adapters/gateway.js";
import { fileAccess } from "../api/_core/gate/access.js";
import type { CoreResponse } from "../api/_core/exchange.js";
import type { Market } from "../api/_core/format/layout/market-rules.js";
import { encodeMarketsIndex, type MarketsIndex } from "../api/_core/format/layout/markets-index.js";
import { SnapshotError } from "../api/_core/format/primitives/errors.js";
import { readMarketsIndex } from "../api/_core/format/read/markets-folder.js";
import { MarketsSource } from "../api/_core/format/read/markets-source.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createHandler, type Handler } from "../api/_core/handle-request.js";
import { memoryRateLimiter } from "../api/_core/gate/rate-limit.js";
import type { UsageEvent, UsageRecorder } from "../api/_core/usage/usage-counter.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { generateDataset } from "./helpers/dataset.js";
import { buildFolder, MARKET_KEYS, MARKETS_NOW, writeMarketAccess } from "./helpers/market-servers.js";
import { spreadCountries } from "./helpers/markets.js";

const MARKETS: Market[] = [
  { id: "gb", name: "United Kingdom", countries: ["GB"] },
  { id: "de", name: "Germany", countries: ["DE"] },
];
const SECRET = "gateway-secret-for-market-tests";
const BASE = "https://api.example";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let work: string;
let folder: string;
let access: string;
/** What each market's function bundles, by its snapshot id: the index and that market's folder alone. */
const bundles = new Map<string, string>();
const counted: UsageEvent[] = [];

beforeAll(async () => {
  work = makeTempDir("gateway-markets");
  const dataset = spreadCountries(generateDataset({ seed: 9, showtimes: 80, cinemas: 4, films: 3 }), ["GB", "DE"]);
  folder = path.join(work, "markets");
  await buildFolder(dataset, folder, MARKETS);
  access = writeMarketAccess(work);
  for (const market of readMarketsIndex(folder).markets) {
    const bundled = path.join(work, `${market.id}-function`);
    mkdirSync(bundled);
    cpSync(path.join(folder, "markets.json"), path.join(bundled, "markets.json"));
    cpSync(path.join(folder, market.id), path.join(bundled, market.id), { recursive: true });
    bundles.set(market.snapshotId, bundled);
  }
});
afterAll(() => removeDir(work));

/**
 * The platform: each internal path to the function of the snapshot id it names (config.json's
 * routes), a core on its bundle with the deployment's default market (DEFAULT_MARKET, as the gateway's).
 */
function forwardTo(defaultMarket: string | undefined): Forward {
  const functions = new Map<string, Handler>();
  for (const [snapshotId, bundled] of bundles) {
    const fn = createHandler({
      access: fileAccess(access),
      now: () => MARKETS_NOW,
      snapshots: new SnapshotSource(bundled),
      folder: { markets: new MarketsSource(bundled) },
      defaultMarket,
      gatewaySecret: SECRET,
    });
    functions.set(snapshotId, fn);
  }
  return (url, method, headers, body) => forwardWith(functions, url, method, headers, body);
}

async function forwardWith(functions: Map<string, Handler>, ...[url, method, headers, body]: Parameters<Forward>) {
  const fn = functions.get(url.pathname.split("/")[2]!);
  if (!fn) throw new Error(`no function for ${url.pathname}`);
  const sent = body ? Buffer.from(await new Response(body).arrayBuffer()) : Buffer.alloc(0);
  const target = `${url.pathname}${url.search}`;
  const answer = await fn({ method, url: target, headers: Object.fromEntries(headers), readBody: async () => sent });
  const out = { ...answer.headers };
  delete out["vercel-cdn-cache-control"];
  return new Response(answer.body.length ? new Uint8Array(answer.body) : null, { status: answer.status, headers: out });
}

const recorder: UsageRecorder = {
  count: (event) => counted.push(event),
  handOff: (url, organization) => ({ day: "2026-11-24", organization, operation: url }),
};

function pair(
  defaultMarket: string | undefined,
  dir = folder,
  index: () => MarketsIndex = () => readMarketsIndex(dir),
): { local: Handler; gateway: Gateway } {
  const common = { access: fileAccess(access), now: () => MARKETS_NOW, defaultMarket };
  const local = createHandler({
    ...common,
    snapshots: new SnapshotSource(dir),
    folder: { markets: new MarketsSource(dir) },
    limiter: memoryRateLimiter(),
  });
  const gateway = createGateway({
    ...common,
    mode: "fetch",
    origin: BASE,
    forward: forwardTo(defaultMarket),
    secret: SECRET,
    limiter: memoryRateLimiter(),
    snapshotId: () => {
      throw new Error("a deployment with markets reads no single manifest");
    },
    markets: index,
    usage: recorder,
  });
  return { local, gateway };
}

function comparable(status: number, headers: Record<string, string>, body: Buffer): Answer {
  const { "x-request-id": requestId, ...rest } = headers;
  const text = body.toString("latin1");
  return { status, headers: rest, body: requestId ? text.replaceAll(requestId, "<id>") : text };
}

async function both(
  pairOf: ReturnType<typeof pair>,
  target: string,
  key?: string,
  coding?: string,
  extra: Record<string, string> = {},
  method = "GET",
) {
  const headers: Record<string, string> = { ...extra };
  if (key) headers.authorization = `Bearer ${key}`;
  if (coding) headers["accept-encoding"] = coding;
  const core: CoreResponse = await pairOf.local({ method, url: target, headers });
  const web = await pairOf.gateway(new Request(`${BASE}${target}`, { method, headers }));
  const viaCore = comparable(core.status, { ...core.headers }, Buffer.from(core.body));
  const viaGateway = comparable(web.status, Object.fromEntries(web.headers), Buffer.from(await web.arrayBuffer()));
  return [viaCore, viaGateway] as const;
}

describe.each([undefined, "gb"])("with default market %s, the deployed pair answers as the core", (byDefault) => {
  let pairOf: ReturnType<typeof pair>;
  beforeAll(() => {
    pairOf = pair(byDefault);
  });

  test.each<[string, string, keyof typeof MARKET_KEYS | undefined, number, number?]>([
    ["a market's stored page", "/gb/v1/films", "every", 200],
    ["another market's page", "/de/v1/cinemas", "every", 200],
    ["a composed page in br", "/de/v1/showtimes?limit=3", "every", 200],
    ["a key entitled to gb, in gb", "/gb/v1/films", "gb", 200],
    ["a key entitled to gb, in de", "/de/v1/films", "gb", 403],
    ["a key entitled to no market", "/gb/v1/films", "none", 403],
    ["no key", "/de/v1/films", undefined, 401],
    ["a market no one has", "/xx/v1/films", "every", 404],
    ["an unknown path in a market", "/gb/v1/nope", "every", 404],
    ["a path no market's", "/films/1", "every", 404],
    ["/v1", "/v1/films", "every", byDefault ? 200 : 404],
    ["/v1 for a key entitled to gb", "/v1/attributes", "gb", byDefault ? 200 : 404],
    ["the list of markets", "/markets", "every", 200],
    ["the list of markets, for a key entitled to gb", "/markets", "gb", 200],
    ["the list of markets, for a key entitled to no market", "/markets", "none", 403],
    ["the list of markets, without a key", "/markets", undefined, 401],
    ["the list of markets, with a parameter", "/markets?limit=1", "every", 400],
    ["the list of markets under a market", "/gb/markets", "every", 404],
  ])("%s (%s)", async (_name, target, key, status) => {
    const [viaCore, viaGateway] = await both(pairOf, target, key && MARKET_KEYS[key], "br");
    expect(viaGateway.status).toBe(status);
    expect(viaGateway).toEqual(viaCore);
  });
});

test("a refusal for a market names it, and nothing is forwarded for it", async () => {
  const { gateway } = pair(undefined);
  const answer = await gateway(
    new Request(`${BASE}/de/v1/films`, { headers: { authorization: `Bearer ${MARKET_KEYS.gb}` } }),
  );
  expect(answer.status).toBe(403);
  const body = (await answer.json()) as { error: { details: unknown } };
  expect(body.error.details).toEqual({ market: "de" });
});

test("usage is counted under the market the path names, within it", async () => {
  counted.length = 0;
  const { gateway } = pair(undefined);
  const headers = { authorization: `Bearer ${MARKET_KEYS.every}` };
  await gateway(new Request(`${BASE}/de/v1/films`, { headers }));
  await gateway(new Request(`${BASE}/xx/v1/films`, { headers }));
  expect(counted.map(({ url, market, status }) => ({ url, market, status }))).toEqual([
    { url: "/v1/films", market: "de", status: 200 },
    { url: "/v1/films", market: "-", status: 404 },
  ]);
});

test("a market's MCP endpoint is forwarded to that market's function, answering as the core", async () => {
  const pairOf = pair(undefined);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "find_cinemas", arguments: { limit: 20 } },
  });
  const headers = {
    authorization: `Bearer ${MARKET_KEYS.every}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const core = await pairOf.local({ method: "POST", url: "/de/mcp", headers, readBody: async () => Buffer.from(body) });
  const web = await pairOf.gateway(new Request(`${BASE}/de/mcp`, { method: "POST", headers, body }));
  const viaGateway = comparable(web.status, Object.fromEntries(web.headers), Buffer.from(await web.arrayBuffer()));
  expect(viaGateway).toEqual(comparable(core.status, { ...core.headers }, Buffer.from(core.body)));
  expect(viaGateway.body).toContain('"countryCode":"DE"');
});

describe("GET /markets, answered by the gateway from the index", () => {
  type Listed = { data: Array<{ id: string; entitled: boolean; default: boolean; counts: unknown }> };

  test.each<[keyof typeof MARKET_KEYS, boolean[]]>([
    ["every", [true, true]],
    ["gb", [true, false]],
  ])("for a key entitled to %s: every market, entitled per key, as the core says", async (key, entitled) => {
    const [viaCore, viaGateway] = await both(pair("gb"), "/markets", MARKET_KEYS[key]);
    expect(viaGateway).toEqual(viaCore);
    const listed = JSON.parse(viaGateway.body) as Listed;
    expect(listed.data.map((m) => [m.id, m.entitled, m.default])).toEqual([
      ["gb", entitled[0], true],
      ["de", entitled[1], false],
    ]);
    expect(listed.data.every((m) => m.counts !== null)).toBe(true);
  });

  test("asked for gzip (too small to be compressed), as HEAD, and its entity tag a 304, alike", async () => {
    const pairOf = pair(undefined);
    const [zipped, zippedViaGateway] = await both(pairOf, "/markets", MARKET_KEYS.every, "gzip");
    expect(zippedViaGateway).toEqual(zipped);
    expect(zipped.headers["cache-control"]).toBe("private, max-age=60");
    const [head, headViaGateway] = await both(pairOf, "/markets", MARKET_KEYS.every, "br", {}, "HEAD");
    expect(headViaGateway).toEqual(head);
    const tag = { "if-none-match": zipped.headers.etag! };
    const [notModified, notModifiedViaGateway] = await both(pairOf, "/markets", MARKET_KEYS.every, "gzip", tag);
    expect([notModified.status, notModifiedViaGateway]).toEqual([304, notModified]);
  });

  test("nothing is forwarded for it, and usage counts it under no market", async () => {
    counted.length = 0;
    const { gateway } = pair(undefined);
    const refusing = createGateway({
      access: fileAccess(access),
      now: () => MARKETS_NOW,
      mode: "fetch",
      origin: BASE,
      forward: () => Promise.reject(new Error("the list of markets is not forwarded")),
      secret: SECRET,
      limiter: memoryRateLimiter(),
      snapshotId: () => "",
      markets: () => readMarketsIndex(folder),
    });
    const headers = { authorization: `Bearer ${MARKET_KEYS.gb}` };
    expect((await refusing(new Request(`${BASE}/markets`, { headers }))).status).toBe(200);
    await gateway(new Request(`${BASE}/markets`, { headers }));
    await gateway(new Request(`${BASE}/markets?x=1`, { headers }));
    expect(counted.map(({ url, market, status }) => ({ url, market, status }))).toEqual([
      { url: "/markets", market: "-", status: 200 },
      { url: "/markets?x=1", market: "-", status: 400 },
    ]);
  });

  test("an index that cannot be read is a 503 after the key checks, never a list", async () => {
    const broken = pair(undefined, folder, () => {
      throw new SnapshotError("markets.json", "fails its checksum");
    });
    const answer = await broken.gateway(
      new Request(`${BASE}/markets`, { headers: { authorization: `Bearer ${MARKET_KEYS.every}` } }),
    );
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("database_unavailable");
    expect((await broken.gateway(new Request(`${BASE}/markets`))).status).toBe(401);
  });

  test("an index of format 1 (no summaries) is a 503 by both; its markets are served", async () => {
    const older = path.join(work, "format-1");
    cpSync(folder, older, { recursive: true });
    const index = readMarketsIndex(folder);
    const markets = index.markets.map(({ summary: _, ...market }) => market);
    writeFileSync(path.join(older, "markets.json"), encodeMarketsIndex({ format: 1, markets }));
    expect(readFileSync(path.join(older, "markets.json"), "utf8")).not.toContain("summary");
    const pairOf = pair(undefined, older);
    const [viaCore, viaGateway] = await both(pairOf, "/markets", MARKET_KEYS.every);
    expect([viaCore.status, viaGateway]).toEqual([503, viaCore]);
    expect(viaCore.body).toContain("database_unavailable");
    const [films, filmsViaGateway] = await both(pairOf, "/gb/v1/films", MARKET_KEYS.every);
    expect([films.status, filmsViaGateway]).toEqual([200, films]);
  });
});

describe("list_markets on a market's function, forwarded by the gateway", () => {
  const message = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "list_markets", arguments: {} },
  });

  test.each<[keyof typeof MARKET_KEYS, string, boolean[]]>([
    ["every", "/de/mcp", [true, true]],
    ["gb", "/gb/mcp", [true, false]],
    ["gb", "/mcp", [true, false]],
  ])("for a key entitled to %s at %s: what GET /markets answers, as the core says", async (key, target, entitled) => {
    const pairOf = pair("gb");
    const headers = {
      authorization: `Bearer ${MARKET_KEYS[key]}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const readBody = async () => Buffer.from(message);
    const core = await pairOf.local({ method: "POST", url: target, headers, readBody });
    const web = await pairOf.gateway(new Request(`${BASE}${target}`, { method: "POST", headers, body: message }));
    const viaGateway = comparable(web.status, Object.fromEntries(web.headers), Buffer.from(await web.arrayBuffer()));
    expect(viaGateway).toEqual(comparable(core.status, { ...core.headers }, Buffer.from(core.body)));
    const listed = JSON.parse(viaGateway.body).result.structuredContent;
    const [, list] = await both(pairOf, "/markets", MARKET_KEYS[key]);
    expect(listed).toEqual(JSON.parse(list.body));
    expect(listed.data.map((m: { entitled: boolean }) => m.entitled)).toEqual(entitled);
  });
});
