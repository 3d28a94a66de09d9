/**
 * The gateway in a deployment with markets (decision: markets, deployed per market): reading the
 * bundled markets' index, it routes `/{market}/v1/...` and `/{market}/mcp` as the core does, decides
 * the entitlement per market before forwarding (403 with details.market), forwards to the internal
 * path of that market's snapshot id (each market's function holding its market alone), answers the
 * core's 404s naming the markets, serves `/v1` by the default market, and counts usage under the
 * market. The deployed pair answers as the one-process core on the whole folder, request ids aside.
 */
import { cpSync, mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGateway, type Forward, type Gateway } from "../api/_adapters/gateway.js";
import { fileAccess } from "../api/_core/gate/access.js";
import type { CoreResponse } from "../api/_core/exchange.js";
import type { Market } from "../api/_core/format/layout/market-rules.js";
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
/** Each market's function, by its snapshot id: a core on the index and that market's folder alone. */
const functions = new Map<string, Handler>();
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
    const markets = new MarketsSource(bundled);
    const fn = createHandler({
      access: fileAccess(access),
      now: () => MARKETS_NOW,
      snapshots: new SnapshotSource(bundled),
      folder: { markets },
      gatewaySecret: SECRET,
    });
    functions.set(market.snapshotId, fn);
  }
});
afterAll(() => removeDir(work));

/** The platform: each internal path to the function of the snapshot id it names (config.json's routes). */
const forward: Forward = async (url, method, headers, body) => {
  const fn = functions.get(url.pathname.split("/")[2]!);
  if (!fn) throw new Error(`no function for ${url.pathname}`);
  const sent = body ? Buffer.from(await new Response(body).arrayBuffer()) : Buffer.alloc(0);
  const target = `${url.pathname}${url.search}`;
  const answer = await fn({ method, url: target, headers: Object.fromEntries(headers), readBody: async () => sent });
  const out = { ...answer.headers };
  delete out["vercel-cdn-cache-control"];
  return new Response(answer.body.length ? new Uint8Array(answer.body) : null, { status: answer.status, headers: out });
};

const recorder: UsageRecorder = {
  count: (event) => counted.push(event),
  handOff: (url, organization) => ({ day: "2026-11-24", organization, operation: url }),
};

function pair(defaultMarket: string | undefined): { local: Handler; gateway: Gateway } {
  const common = { access: fileAccess(access), now: () => MARKETS_NOW, defaultMarket };
  const local = createHandler({
    ...common,
    snapshots: new SnapshotSource(folder),
    folder: { markets: new MarketsSource(folder) },
    limiter: memoryRateLimiter(),
  });
  const gateway = createGateway({
    ...common,
    mode: "fetch",
    origin: BASE,
    forward,
    secret: SECRET,
    limiter: memoryRateLimiter(),
    snapshotId: () => {
      throw new Error("a deployment with markets reads no single manifest");
    },
    markets: () => readMarketsIndex(folder),
    usage: recorder,
  });
  return { local, gateway };
}

function comparable(status: number, headers: Record<string, string>, body: Buffer): Answer {
  const { "x-request-id": requestId, ...rest } = headers;
  const text = body.toString("latin1");
  return { status, headers: rest, body: requestId ? text.replaceAll(requestId, "<id>") : text };
}

async function both(pairOf: ReturnType<typeof pair>, target: string, key?: string, coding?: string) {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (coding) headers["accept-encoding"] = coding;
  const core: CoreResponse = await pairOf.local({ method: "GET", url: target, headers });
  const web = await pairOf.gateway(new Request(`${BASE}${target}`, { headers }));
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
