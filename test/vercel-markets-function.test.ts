/**
 * A market's function on Vercel (decision: markets, deployed per market): bundling the markets'
 * index and its one market's folder, it answers the internal path naming that market's snapshot id
 * from that market, byte for byte what a function bundling that market's snapshot alone answers, and
 * a snapshot id it does not hold (another market's, or none of them) is the 503 of a deployment out
 * of step, never another market's body. MCP's list_markets there lists every market from the bundled
 * index (other markets' snapshots are not in the function), `entitled` as the gateway named it:
 * what the core on the whole folder answers `GET /markets` with.
 */
import { cpSync, mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Market } from "../api/_core/format/layout/market-rules.js";
import { readMarketsIndex } from "../api/_core/format/read/markets-folder.js";
import { fileAccess } from "../api/_core/gate/access.js";
import { ENTITLED_MARKETS_HEADER, GATEWAY_TOKEN_HEADER } from "../api/_core/gate/internal-path.js";
import { MarketsSource } from "../api/_core/format/read/markets-source.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { type CoreResponse, createHandler, type Handler } from "../api/_core/handle-request.js";
import { deployedHandle } from "../api/_adapters/vercel.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { generateDataset } from "./helpers/dataset.js";
import { buildFolder, MARKET_KEYS, MARKETS_NOW, writeMarketAccess } from "./helpers/market-servers.js";
import { spreadCountries } from "./helpers/markets.js";

const MARKETS: Market[] = [
  { id: "gb", name: "United Kingdom", countries: ["GB"] },
  { id: "de", name: "Germany", countries: ["DE"] },
];
const SECRET = "a-gateway-secret-of-32-characters-or-more";

let work: string;
let ids: Record<string, string>;
/** Functions as the split output bundles them: gb's (index and gb/), and one of gb's snapshot alone. */
let gbFunction: (url: string) => Promise<CoreResponse>;
let gbAlone: (url: string) => Promise<CoreResponse>;
/** gb's function asked an MCP message, with the markets the gateway names (none: no header at all). */
let gbMcp: (message: string, entitled?: string) => Promise<CoreResponse>;
/** The core on the whole folder, as the local server serves it, with gb the default market. */
let core: Handler;

function functionOn(dir: string, access: string): (url: string) => Promise<CoreResponse> {
  const env = { SNAPSHOT_DIR: dir, ACCESS_FILE: access, GATEWAY_SECRET: SECRET };
  const handle = deployedHandle(env, { onStop: () => {} });
  return async (url) => handle({ method: "GET", url, headers: { [GATEWAY_TOKEN_HEADER]: SECRET } });
}

function mcpOn(dir: string, access: string): typeof gbMcp {
  const env = { SNAPSHOT_DIR: dir, ACCESS_FILE: access, GATEWAY_SECRET: SECRET, DEFAULT_MARKET: "gb" };
  const handle = deployedHandle(env, { onStop: () => {} });
  return async (message, entitled) => {
    const headers: Record<string, string> = {
      [GATEWAY_TOKEN_HEADER]: SECRET,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    if (entitled !== undefined) headers[ENTITLED_MARKETS_HEADER] = entitled;
    const url = `/_c/${ids.gb}/identity/mcp`;
    return handle({ method: "POST", url, headers, readBody: async () => Buffer.from(message) });
  };
}

beforeAll(async () => {
  work = makeTempDir("vercel-markets-function");
  const dataset = spreadCountries(generateDataset({ seed: 5, showtimes: 80, cinemas: 4, films: 3 }), ["GB", "DE"]);
  const folder = path.join(work, "markets");
  await buildFolder(dataset, folder, MARKETS);
  ids = Object.fromEntries(readMarketsIndex(folder).markets.map((m) => [m.id, m.snapshotId]));
  const bundled = path.join(work, "gb-function");
  mkdirSync(bundled);
  cpSync(path.join(folder, "markets.json"), path.join(bundled, "markets.json"));
  cpSync(path.join(folder, "gb"), path.join(bundled, "gb"), { recursive: true });
  const access = writeMarketAccess(work);
  gbFunction = functionOn(bundled, access);
  gbAlone = functionOn(path.join(folder, "gb"), access);
  gbMcp = mcpOn(bundled, access);
  core = createHandler({
    access: fileAccess(access),
    now: () => MARKETS_NOW,
    snapshots: new SnapshotSource(folder),
    folder: { markets: new MarketsSource(folder) },
    defaultMarket: "gb",
  });
});
afterAll(() => removeDir(work));

test("its market's snapshot id's internal path is answered from that market, as its snapshot alone is", async () => {
  for (const target of ["/v1/films", "/v1/cinemas?limit=2", "/v1/showtimes", "/v1/changes"]) {
    const url = `/_c/${ids.gb}/identity${target}`;
    const [split, alone] = await Promise.all([gbFunction(url), gbAlone(url)]);
    expect([split.status, target]).toEqual([200, target]);
    expect(split.body.toString()).toBe(alone.body.toString());
    expect(split.headers.etag).toBe(alone.headers.etag);
  }
});

test("another market's snapshot id, or one no market has, is a 503 out of step, not another's body", async () => {
  for (const id of [ids.de!, "0".repeat(32)]) {
    const answer = await gbFunction(`/_c/${id}/identity/v1/films`);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body.toString())).toEqual({
      error: expect.objectContaining({ code: "database_unavailable" }),
    });
  }
});

describe("list_markets on a market's function", () => {
  const listMarkets = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "list_markets", arguments: {} },
  });
  const listed = (answer: CoreResponse) => JSON.parse(answer.body.toString()).result;
  const marketsFor = async (key: string) =>
    JSON.parse(
      (await core({ method: "GET", url: "/markets", headers: { authorization: `Bearer ${key}` } })).body.toString(),
    );

  test.each<[string, string, keyof typeof MARKET_KEYS]>([
    ["every market", "gb,de", "every"],
    ["gb alone", "gb", "gb"],
  ])("the gateway naming %s: every market as the core lists it for such a key", async (_, named, key) => {
    const result = listed(await gbMcp(listMarkets, named));
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(await marketsFor(MARKET_KEYS[key]));
    // de's snapshot is not in gb's function: the index says what it holds.
    expect(result.structuredContent.data[1].id).toBe("de");
    expect(result.structuredContent.data[1].counts.showtimes).toBeGreaterThan(0);
  });

  test("the gateway naming no market: none entitled", async () => {
    const result = listed(await gbMcp(listMarkets, ""));
    expect(result.structuredContent.data.map((m: { entitled: boolean }) => m.entitled)).toEqual([false, false]);
  });

  test("no header from the gateway (a deployment out of step): a tool error, never a guess", async () => {
    const result = listed(await gbMcp(listMarkets));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
  });
});
