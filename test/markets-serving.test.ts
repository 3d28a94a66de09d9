/**
 * Served per market (decision: markets), over real sockets: a local server on a multi-market folder
 * answers `/{market}/v1/...` and `/{market}/mcp` from that market's snapshot, and exactly what a server
 * on a single-market build of that market's data answers, but for the market's id in its cursors and
 * sync tokens; cursors and sync tokens are refused in another market; `/v1` serves the default market
 * or is a 404 naming the markets; `GET /markets` says what each holds and which the key may use; a
 * market that cannot be opened is that market's 503 alone; a rebuild is followed, even one that turns
 * the folder from one snapshot into markets; the default market is checked at start.
 */
import { cpSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Market } from "../api/_core/format/layout/market-rules.js";
import { startServer } from "../scripts/server/local-server.js";
import { createClient } from "../client/index.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { type Dataset, expectedList, generateDataset } from "./helpers/dataset.js";
import {
  type Answer,
  ask,
  buildFolder,
  MARKET_KEYS,
  MARKETS_NOW,
  type Running,
  serveFolder,
  until,
  walkApi,
  withoutMarketIds,
  writeMarketAccess,
} from "./helpers/market-servers.js";
import { marketDataset, spreadCountries } from "./helpers/markets.js";

const MARKETS: Market[] = [
  { id: "gb", name: "United Kingdom", countries: ["GB"] },
  { id: "dach", name: "Germany, Austria, Switzerland", countries: ["DE", "AT", "CH"] },
  { id: "fr", name: "France", countries: ["FR"] },
  // Holds no cinema: an empty, valid snapshot.
  { id: "ie", name: "Ireland", countries: ["IE"] },
];
const IDS = MARKETS.map((m) => m.id);

let work: string;
let dataset: Dataset;
let folder: string;
let access: string;
/** No default market. */
let plain: Running;
/** DEFAULT_MARKET gb. */
let defaulted: Running;

beforeAll(async () => {
  work = makeTempDir("markets-serving");
  const generated = generateDataset({ seed: 23, showtimes: 260, cinemas: 6, films: 4 });
  dataset = spreadCountries(generated, ["GB", "DE", "FR", "AT"]);
  folder = path.join(work, "markets");
  await buildFolder(dataset, folder, MARKETS);
  access = writeMarketAccess(work);
  plain = await serveFolder(folder, access);
  defaulted = await serveFolder(folder, access, { defaultMarket: "gb" });
});

afterAll(async () => {
  await plain?.close();
  await defaulted?.close();
  removeDir(work);
});

const every = (base: string, target: string) => ask(base, target, MARKET_KEYS.every);

/** Every record of a list, in list order, by its pages. */
async function listAll(base: string, list: string): Promise<Array<{ id: string; [key: string]: unknown }>> {
  const records = [];
  for (let cursor: string | null = null; ; ) {
    const answer: Answer = await every(base, `${list}?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    expect(answer.status, answer.text).toBe(200);
    const page = answer.json();
    records.push(...page.data);
    cursor = page.pagination.nextCursor;
    if (!cursor) return records;
  }
}

function expectNotFound(answer: Answer, ...words: string[]): void {
  expect(answer.status, answer.text).toBe(404);
  expect(answer.json().error.code).toBe("not_found");
  for (const word of words) expect(answer.json().error.message).toContain(word);
}

describe("each market's base address", () => {
  test.each(MARKETS)("/$id/v1 lists $id's records, and only them", async (market) => {
    const own = marketDataset(dataset, market);
    for (const resource of ["cinemas", "films", "showtimes", "attributes"] as const) {
      const served = await listAll(plain.url, `/${market.id}/v1/${resource}`);
      expect(
        served.map((r) => r.id),
        resource,
      ).toEqual(expectedList(own, resource).map((r) => r.id));
    }
  });

  test("answers what a server on a build of that market's data alone answers, but for its ids in tokens", async () => {
    const alone = path.join(work, "fr-alone");
    await buildFolder(marketDataset(dataset, MARKETS[2]!), alone);
    const single = await serveFolder(alone, access);
    try {
      const get = (base: string) => async (target: string) => {
        const { status, text } = await every(base, target);
        return { status, text };
      };
      const within = await walkApi(get(`${plain.url}/fr`));
      const byItself = await walkApi(get(single.url));
      expect(within.length).toBeGreaterThan(40);
      const comparable = ([target, status, text]: [string, number, string]) =>
        [withoutMarketIds(target), status, withoutMarketIds(text)] as const;
      expect(within.map(comparable)).toEqual(byItself.map(comparable));
      // Not the same bytes: the market's cursors and tokens bind its id.
      expect(within.map(([, , text]) => text)).not.toEqual(byItself.map(([, , text]) => text));
    } finally {
      await single.close();
    }
  });

  test("a path that is no endpoint within a market, or a market the folder lacks, is a 404", async () => {
    expectNotFound(await every(plain.url, "/gb/markets"), "No such endpoint");
    expectNotFound(await every(plain.url, "/gb/v2/films"), "No such endpoint");
    expectNotFound(await every(plain.url, "/gb"), "No such endpoint");
    expectNotFound(await every(plain.url, "/films/1"), "No such endpoint");
    expectNotFound(await every(plain.url, "/xx/v1/films"), 'No market has the id "xx"', "/gb/v1, /dach/v1");
    // After the key checks, as any 404: no key is a 401; a key for gb alone learns the market is none.
    expect((await ask(plain.url, "/xx/v1/films")).status).toBe(401);
    expectNotFound(await ask(plain.url, "/xx/v1/films", MARKET_KEYS.gb), 'No market has the id "xx"');
  });
});

describe("/v1 and /mcp", () => {
  test("without a default market: a 404 naming the markets' addresses", async () => {
    for (const target of ["/v1/films", "/v1", "/v1/cinemas/x?limit=3"])
      expectNotFound(await every(plain.url, target), "/v1 serves none", "/gb/v1, /dach/v1, /fr/v1, /ie/v1");
    const mcp = await ask(plain.url, "/mcp", MARKET_KEYS.every, { method: "POST", body: "{}" });
    expectNotFound(mcp, "/mcp serves none", "/gb/mcp, /dach/mcp");
  });

  test("with a default market: that market's answers, byte for byte", async () => {
    for (const target of ["/v1/films", "/v1/showtimes?limit=3", "/v1/changes?limit=10", "/v1/cinemas/nope"]) {
      const viaDefault = await every(defaulted.url, target);
      const viaMarket = await every(defaulted.url, `/gb${target}`);
      const answer = ({ status, text }: Answer) => [status, text.replace(/"requestId":"[^"]+"/, "")];
      expect(answer(viaDefault), target).toEqual(answer(viaMarket));
    }
    // Its cursors are gb's: they page on at /gb/v1, and nowhere else.
    const first = (await every(defaulted.url, "/v1/showtimes?limit=3")).json();
    const cursor = first.pagination.nextCursor;
    expect((await every(defaulted.url, `/gb/v1/showtimes?limit=3&cursor=${cursor}`)).status).toBe(200);
    expect((await every(defaulted.url, `/fr/v1/showtimes?limit=3&cursor=${cursor}`)).status).toBe(400);
  });
});

describe("cursors and sync tokens belong to their market", () => {
  test.each([
    ["a composed page's", "/v1/showtimes?limit=3"],
    ["a stored page's", "/v1/showtimes"],
    ["a filtered list's", "/v1/films?startsAfter=2026-11-22T00:00Z&limit=2"],
    ["the feed's", "/v1/changes?limit=5"],
  ])("%s cursor from gb is a 400 naming cursor on dach", async (_, list) => {
    const page = (await every(plain.url, `/gb${list}`)).json();
    const cursor = page.pagination.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const glue = list.includes("?") ? "&" : "?";
    expect((await every(plain.url, `/gb${list}${glue}cursor=${cursor}`)).status).toBe(200);
    const elsewhere = await every(plain.url, `/dach${list}${glue}cursor=${cursor}`);
    expect(elsewhere.status, elsewhere.text).toBe(400);
    expect(elsewhere.json().error.details).toEqual({ parameter: "cursor" });
    expect(elsewhere.json().error.message).toContain("another market");
  });

  test("gb's sync token is a 400 naming since on dach, and answers on gb", async () => {
    const feed = (await every(plain.url, "/gb/v1/changes?limit=5000")).json();
    const token = feed.syncToken as string;
    expect((await every(plain.url, `/gb/v1/changes?since=${token}`)).status).toBe(200);
    const elsewhere = await every(plain.url, `/dach/v1/changes?since=${token}`);
    expect(elsewhere.status, elsewhere.text).toBe(400);
    expect(elsewhere.json().error.details).toEqual({ parameter: "since" });
  });
});

describe("GET /markets", () => {
  test("lists every market with what it holds; the first and last dates are the dates `date` finds", async () => {
    const answer = await every(plain.url, "/markets");
    expect(answer.status, answer.text).toBe(200);
    const { data, freshness } = answer.json();
    expect(data.map((m: { id: string }) => m.id)).toEqual(IDS);
    expect(freshness.observedAt).toEqual(expect.any(String));
    for (const [i, market] of MARKETS.entries()) {
      const entry = data[i];
      const own = marketDataset(dataset, market);
      expect(entry).toMatchObject({ ...market, basePath: `/${market.id}/v1`, default: false, entitled: true });
      expect(entry.counts).toEqual({
        cinemas: own.cinemas.length,
        films: own.films.length,
        showtimes: own.showtimes.length,
      });
      if (own.showtimes.length === 0) {
        expect([entry.firstDate, entry.lastDate]).toEqual([null, null]);
        continue;
      }
      const count = async (date: string) =>
        (await every(plain.url, `/${market.id}/v1/showtimes?date=${date}&limit=1`)).json().data.length;
      const shift = (date: string, days: number) =>
        new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
      expect(await count(entry.firstDate)).toBe(1);
      expect(await count(entry.lastDate)).toBe(1);
      expect(await count(shift(entry.firstDate, -1))).toBe(0);
      expect(await count(shift(entry.lastDate, 1))).toBe(0);
    }
  });

  test("entitled per key: a key for gb alone sees gb entitled and the others not, and gets their 403", async () => {
    const answer = await ask(plain.url, "/markets", MARKET_KEYS.gb);
    expect(answer.status).toBe(200);
    expect(answer.json().data.map((m: { id: string; entitled: boolean }) => [m.id, m.entitled])).toEqual([
      ["gb", true],
      ["dach", false],
      ["fr", false],
      ["ie", false],
    ]);
    expect((await ask(plain.url, "/gb/v1/films", MARKET_KEYS.gb)).status).toBe(200);
    const refused = await ask(plain.url, "/dach/v1/films", MARKET_KEYS.gb);
    expect(refused.status).toBe(403);
    expect(refused.json().error).toMatchObject({ code: "entitlement_required", details: { market: "dach" } });
    // /v1 of a deployment whose default is gb is gb: that key may use it.
    expect((await ask(defaulted.url, "/v1/films", MARKET_KEYS.gb)).status).toBe(200);
  });

  test("behind the same gate and headers as the API: 401, 403 unpaid, ETag, 304, strict query", async () => {
    expect((await ask(plain.url, "/markets")).status).toBe(401);
    const unpaid = await ask(plain.url, "/markets", MARKET_KEYS.none);
    expect([unpaid.status, unpaid.json().error.code]).toEqual([403, "entitlement_required"]);
    const answer = await every(plain.url, "/markets");
    expect(answer.headers.get("cache-control")).toBe("private, max-age=60");
    expect(answer.headers.get("ratelimit")).toMatch(/^"org";r=\d+;t=\d+$/);
    const etag = answer.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}(-gzip)?"$/);
    expect((await ask(plain.url, "/markets", MARKET_KEYS.every, { headers: { "if-none-match": etag } })).status).toBe(
      304,
    );
    // Another key's answer is another body, another tag.
    expect((await ask(plain.url, "/markets", MARKET_KEYS.gb)).headers.get("etag")).not.toBe(etag);
    const head = await ask(plain.url, "/markets", MARKET_KEYS.every, { method: "HEAD" });
    expect([head.status, head.text]).toEqual([200, ""]);
    const bad = await every(plain.url, "/markets?limit=1");
    expect([bad.status, bad.json().error.details]).toEqual([400, { parameter: "limit" }]);
    expect((await ask(plain.url, "/markets", MARKET_KEYS.every, { method: "POST" })).status).toBe(405);
  });

  test("says which market /v1 serves", async () => {
    const { data } = (await every(defaulted.url, "/markets")).json();
    expect(data.map((m: { default: boolean }) => m.default)).toEqual([true, false, false, false]);
  });

  test("a single-market folder lists its one market: id null, at /v1", async () => {
    const single = path.join(work, "single");
    await buildFolder(dataset, single);
    const running = await serveFolder(single, access);
    try {
      const { data } = (await every(running.url, "/markets")).json();
      expect(data).toEqual([
        expect.objectContaining({
          id: null,
          name: null,
          countries: ["AT", "DE", "FR", "GB"],
          basePath: "/v1",
          default: true,
          entitled: true,
          counts: { cinemas: dataset.cinemas.length, films: dataset.films.length, showtimes: dataset.showtimes.length },
        }),
      ]);
      expectNotFound(await every(running.url, "/gb/v1/films"), "No such endpoint");
    } finally {
      await running.close();
    }
  });
});

describe("assistants and the typed client", () => {
  const call = (base: string, target: string, name: string, args: Record<string, unknown> = {}) =>
    ask(base, target, MARKET_KEYS.every, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
    });

  test("a market's MCP endpoint answers from that market; list_markets lists every market", async () => {
    const found = (await call(plain.url, "/dach/mcp", "find_cinemas", { limit: 20 })).json();
    const countries = found.result.structuredContent.data.map(
      (c: { location: { countryCode: string } }) => c.location.countryCode,
    );
    expect(new Set(countries)).toEqual(new Set(["DE", "AT"]));
    const listed = (await call(plain.url, "/fr/mcp", "list_markets")).json();
    expect(listed.result.structuredContent).toEqual((await every(plain.url, "/markets")).json());
    expect(listed.result.content[0].text).toContain("Germany, Austria, Switzerland (dach) · DE, AT, CH");
  });

  test("createClient({ market }) asks that market; listMarkets() the origin", async () => {
    const client = createClient({ baseUrl: plain.url, apiKey: MARKET_KEYS.gb, market: "gb" });
    const cinemas = await client.listCinemas({ limit: 100 });
    expect(cinemas.data.every((c) => c.location.countryCode === "GB")).toBe(true);
    const markets = await client.listMarkets();
    expect(markets.data.map((m) => [m.id, m.entitled])).toEqual(IDS.map((id) => [id, id === "gb"]));
    const refused = await createClient({ baseUrl: `${plain.url}/v1`, apiKey: MARKET_KEYS.gb, market: "fr" })
      .listFilms()
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 403, details: { market: "fr" } });
    expect(() => createClient({ baseUrl: plain.url, apiKey: "k", market: "GB" })).toThrow(/market must be/);
  });
});

describe("a folder that changes", () => {
  test("a market that cannot be opened is that market's 503 alone", async () => {
    const broken = path.join(work, "broken");
    cpSync(folder, broken, { recursive: true });
    writeFileSync(path.join(broken, "dach", "manifest.json"), "{ not json");
    const problems: Array<[string, string | undefined]> = [];
    const running = await serveFolder(broken, access, { onSnapshotProblem: (r, m) => problems.push([r, m]) });
    try {
      expect((await every(running.url, "/dach/v1/films")).status).toBe(503);
      expect((await every(running.url, "/gb/v1/films")).status).toBe(200);
      const { data } = (await every(running.url, "/markets")).json();
      expect(data[1]).toMatchObject({ id: "dach", counts: null, firstDate: null, freshness: null });
      expect(data[0].counts).not.toBeNull();
      expect((await ask(running.url, "/healthz")).status).toBe(503);
      expect(problems).toEqual([["dach/manifest.json: is not JSON", "dach"]]);
    } finally {
      await running.close();
    }
  });

  test("a rebuild that turns one snapshot into markets is served without a restart", async () => {
    const changing = path.join(work, "changing");
    await buildFolder(dataset, changing);
    const running = await serveFolder(changing, access, { snapshotRecheckMs: 20 });
    try {
      expect((await every(running.url, "/v1/films")).status).toBe(200);
      await buildFolder(dataset, changing, MARKETS);
      await until(async () => (await every(running.url, "/gb/v1/films")).status === 200, "gb served");
      expectNotFound(await every(running.url, "/v1/films"), "/v1 serves none");
      const health = (await ask(running.url, "/healthz")).json();
      expect(health.markets.map((m: { id: string }) => m.id)).toEqual(IDS);
    } finally {
      await running.close();
    }
  });
});

describe("the default market, checked at start", () => {
  const start = (snapshotDir: string, defaultMarket: string) =>
    startServer({ snapshotDir, accessFile: access, port: 0, defaultMarket, now: () => MARKETS_NOW });

  test.each([
    ["not a market of the folder", "xx", 'the default market "xx" is not a market of the snapshot in'],
    ["not a market id", "GB", "the default market must be 2..32 lowercase letters"],
    ["a reserved name", "v1", 'the default market "v1" is reserved'],
  ])("%s: the server does not start, and says so", async (_, market, message) => {
    await expect(start(folder, market)).rejects.toThrow(message);
  });

  test("the refusal names the folder's markets", async () => {
    await expect(start(folder, "xx")).rejects.toThrow("its markets are gb, dach, fr, ie");
  });

  test("a folder of one snapshot has no market to default to", async () => {
    const single = path.join(work, "single-default");
    await buildFolder(dataset, single);
    await expect(start(single, "gb")).rejects.toThrow("has none (it was built without markets.json)");
  });
});
