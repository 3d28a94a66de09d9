/**
 * The pieces of serving markets (decision: markets), each at its bounds: where a target goes
 * (market-path.ts, a pure function a gateway can share), the market id a cursor binding and a sync
 * token carry, the 400s of a cursor or token of another market, the 404 naming the markets, and the
 * source of a multi-market folder when its index or a market is rebuilt (markets-source.ts) or the
 * folder turns from markets into one snapshot (snapshot-watch.ts).
 */
import { cpSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { isMarketApi, routeMarket, splitMarket } from "../api/_core/endpoints/market-path.js";
import { noSuchMarket } from "../api/_core/endpoints/markets-endpoint.js";
import { parseChangesRequest, parseListRequest } from "../api/_core/endpoints/parse-request.js";
import { encodeMarketsIndex, MARKETS_INDEX_FORMAT } from "../api/_core/format/layout/markets-index.js";
import type { SnapshotError } from "../api/_core/format/primitives/errors.js";
import { readMarketsIndex } from "../api/_core/format/read/markets-folder.js";
import { MarketsSource, marketShare } from "../api/_core/format/read/markets-source.js";
import { DEFAULT_BUDGETS } from "../api/_core/format/read/snapshot.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { ApiError } from "../api/_core/respond/errors.js";
import { bindingOf, encodeCursorEscaped } from "../api/_core/tokens/cursor.js";
import { sealer } from "../api/_core/tokens/sealed.js";
import { decodeSyncToken, encodeSyncToken } from "../api/_core/tokens/sync-token.js";
import { FolderSource, loggedMarkets } from "../scripts/server/snapshot-watch.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { generateDataset } from "./helpers/dataset.js";
import { buildFolder } from "./helpers/market-servers.js";
import { spreadCountries } from "./helpers/markets.js";

describe("where a target goes", () => {
  test.each([
    ["/gb/v1/films?limit=5", "gb", "/v1/films?limit=5"],
    ["/gb/v1", "gb", "/v1"],
    ["/gb/mcp", "gb", "/mcp"],
    ["/gb", "gb", ""],
    ["/gb?x=1", "gb", "?x=1"],
    ["/ab/v1", "ab", "/v1"],
    [`/${"a".repeat(32)}/v1`, "a".repeat(32), "/v1"],
    ["/a-1/v1", "a-1", "/v1"],
    // Not ids: one character, 33, uppercase, a dot; nor the names the server answers itself.
    ["/a/v1", undefined, "/a/v1"],
    [`/${"a".repeat(33)}/v1`, undefined, `/${"a".repeat(33)}/v1`],
    ["/GB/v1", undefined, "/GB/v1"],
    ["/g.b/v1", undefined, "/g.b/v1"],
    ["/v1/films", undefined, "/v1/films"],
    ["/mcp", undefined, "/mcp"],
    ["/markets", undefined, "/markets"],
    ["/healthz", undefined, "/healthz"],
    ["/_c/x/gzip/v1", undefined, "/_c/x/gzip/v1"],
    ["/", undefined, "/"],
    ["", undefined, ""],
  ])("%s: market %s, then %s", (url, market, rest) => {
    expect(splitMarket(url)).toEqual({ market, rest });
  });

  test.each([
    ["/v1", true],
    ["/v1/films", true],
    ["/v1?x", true],
    ["/mcp", true],
    ["/mcp?x", true],
    ["/v10/films", false],
    ["/mcpx", false],
    ["/markets", false],
    ["", false],
  ])("%s is a market's API: %s", (rest, api) => {
    expect(isMarketApi(rest)).toBe(api);
  });

  test.each([
    ["/markets", undefined, { to: "list" }],
    ["/markets?x=1", "gb", { to: "list" }],
    ["/dach/v1/films", undefined, { to: "market", market: "dach", rest: "/v1/films", byDefault: false }],
    ["/dach/mcp", "gb", { to: "market", market: "dach", rest: "/mcp", byDefault: false }],
    ["/v1/films", "gb", { to: "market", market: "gb", rest: "/v1/films", byDefault: true }],
    ["/mcp", "gb", { to: "market", market: "gb", rest: "/mcp", byDefault: true }],
    ["/v1/films", undefined, { to: "no-default", rest: "/v1/films" }],
    ["/mcp", undefined, { to: "no-default", rest: "/mcp" }],
    // A first segment that could be an id names no market unless the market's API follows it.
    ["/films/1", "gb", { to: "nowhere" }],
    ["/gb/markets", "gb", { to: "nowhere" }],
    ["/gb", "gb", { to: "nowhere" }],
    ["/", "gb", { to: "nowhere" }],
  ] as const)("%s (default %s) goes to %o", (url, defaultMarket, route) => {
    expect(routeMarket(url, defaultMarket)).toEqual(route);
  });
});

describe("a market's id in cursors and sync tokens", () => {
  test("a binding without a market is today's; each market's is its own", () => {
    const bound = [["filmId", "f"]] as const;
    expect(bindingOf("showtimes", bound, undefined)).toBe(bindingOf("showtimes", bound));
    const bindings = new Set(["gb", "dach", "g-b"].map((market) => bindingOf("showtimes", bound, market)));
    bindings.add(bindingOf("showtimes", bound));
    expect(bindings.size).toBe(4);
  });

  test.each([
    [{ history: "h", generation: 0 }, "without a market: three elements, as before markets"],
    [{ history: "h", generation: 7, market: "gb" }, "with one"],
  ])("a token round-trips: %o (%s)", (token, _) => {
    expect(decodeSyncToken(encodeSyncToken(token))).toEqual(token);
  });

  test.each([
    [[1, "h", 0, 5], "a market that is not a string"],
    [[1, "h", 0, "gb", "x"], "a fifth element"],
    [[1, "h"], "two elements"],
  ])("what the API never issues is no token: %j (%s)", (parts) => {
    const forged = sealer("cinema-listings/sync-token/v1").seal(Buffer.from(JSON.stringify(parts)));
    expect(decodeSyncToken(forged)).toBeUndefined();
  });

  function refusal(run: () => unknown): ApiError {
    try {
      run();
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
    throw new Error("not refused");
  }

  test.each([
    ["gb", "dach", "another market's"],
    ["gb", undefined, "a market's, on a deployment without markets"],
    [undefined, "gb", "one without markets, in a market"],
  ])("a cursor issued in %s is a 400 naming cursor in %s (%s)", (from, to, _) => {
    const issued = parseListRequest("films", "limit=2", from);
    const cursor = encodeCursorEscaped(issued.binding, undefined, "film-a");
    expect(() => parseListRequest("films", `limit=2&cursor=${cursor}`, from)).not.toThrow();
    const error = refusal(() => parseListRequest("films", `limit=2&cursor=${cursor}`, to));
    expect([error.status, error.details]).toEqual([400, { parameter: "cursor" }]);
    if (to !== undefined) expect(error.message).toContain("another market");
  });

  test.each([
    ["gb", "dach"],
    ["gb", undefined],
    [undefined, "gb"],
  ])("a sync token of %s's feed is a 400 naming since in %s's", (from, to) => {
    const since = encodeSyncToken({ history: "h", generation: 1, market: from });
    expect(() => parseChangesRequest(`since=${since}`, from)).not.toThrow();
    const error = refusal(() => parseChangesRequest(`since=${since}`, to));
    expect([error.status, error.details]).toEqual([400, { parameter: "since" }]);
  });
});

describe("the 404 naming the markets", () => {
  test.each([1, 2, 10, 100])("with %i markets of the longest ids, the message stays within 300 characters", (n) => {
    const ids = Array.from({ length: n }, (_, i) => `${i}`.padStart(32, "m"));
    for (const error of [noSuchMarket(undefined, ids, false), noSuchMarket("x".repeat(32), ids, true)]) {
      expect([error.status, error.code]).toEqual([404, "not_found"]);
      expect([...error.message].length).toBeLessThanOrEqual(300);
      expect(error.message).toContain(`/${ids[0]}/`);
      if (n > 4) expect(error.message).toContain("more");
    }
  });

  test("names /mcp addresses for /mcp, and the market asked for", () => {
    expect(noSuchMarket("xx", ["gb", "dach"], true).message).toBe(
      'No market has the id "xx": its markets are at /gb/mcp, /dach/mcp (GET /markets lists them).',
    );
    expect(noSuchMarket(undefined, ["gb"], false).message).toBe(
      "This deployment serves markets, each at its own address, and /v1 serves none of them: its market is at " +
        "/gb/v1 (GET /markets lists them).",
    );
  });
});

describe("a multi-market folder's source", () => {
  let work: string;
  let built: string;
  const dataset = spreadCountries(generateDataset({ seed: 5, showtimes: 40, cinemas: 4, films: 3 }), ["GB", "DE"]);
  const MARKETS = [
    { id: "gb", name: "United Kingdom", countries: ["GB"] },
    { id: "dach", name: "Germany, Austria, Switzerland", countries: ["DE", "AT", "CH"] },
  ];

  beforeAll(async () => {
    work = makeTempDir("market-routing");
    built = path.join(work, "built");
    await buildFolder(dataset, built, MARKETS);
  });
  afterAll(() => removeDir(work));

  let copies = 0;
  /** A copy of the built folder, and a source of it told what it does not take. */
  function copy() {
    const dir = path.join(work, `copy-${copies++}`);
    cpSync(built, dir, { recursive: true });
    const told: Array<[string, string | undefined]> = [];
    const source = new MarketsSource(dir, {
      onNotTaken: (problem: SnapshotError, _: string, market?: string) => told.push([problem.message, market]),
    });
    return { dir, source, told };
  }

  /** Writes an index of `markets`, as a build would, but for what a test changes. */
  function writeIndex(dir: string, markets: ReturnType<typeof readMarketsIndex>["markets"]): void {
    writeFileSync(path.join(dir, "markets.json"), encodeMarketsIndex({ format: MARKETS_INDEX_FORMAT, markets }));
  }

  test("an index rebuilt broken replaces nothing, and is told once", () => {
    const { dir, source, told } = copy();
    const ids = [...source.markets().keys()];
    writeFileSync(path.join(dir, "markets.json"), "{}");
    expect([...source.markets().keys()]).toEqual(ids);
    expect([...source.markets().keys()]).toEqual(ids);
    expect(told).toEqual([
      [
        "markets.json: is format undefined, this server reads format 2: rebuild the snapshot (npm run build)",
        undefined,
      ],
    ]);
    source.close();
  });

  test("a market gone from a rebuilt index is served no more; one kept keeps its snapshot", () => {
    const { dir, source } = copy();
    const gb = source.market("gb")!;
    const snapshot = gb.source.current();
    writeIndex(dir, readMarketsIndex(dir).markets.slice(0, 1));
    expect([...source.markets().keys()]).toEqual(["gb"]);
    expect(source.market("dach")).toBeUndefined();
    expect(source.market("gb")!.source.current()).toBe(snapshot);
    source.close();
  });

  test("a market whose manifest is not the one the index names is that market's 503", () => {
    const { dir, source } = copy();
    const [gb, dach] = readMarketsIndex(dir).markets;
    writeIndex(dir, [{ ...gb!, snapshotId: dach!.snapshotId }, dach!]);
    expect(() => source.market("gb")!.source.current()).toThrow(
      "gb/manifest.json: is not the market markets.json names",
    );
    expect(source.market("dach")!.source.current().manifest.market?.id).toBe("dach");
    source.close();
  });

  test("one process serving every market splits one snapshot's budgets among them; a function does not", () => {
    const { dir } = copy();
    const markets = readMarketsIndex(dir).markets;
    const shown = (source: MarketsSource) => markets.map((m) => source.market(m.id)!.source.budgets);
    const local = shown(loggedMarkets(dir, 0, undefined));
    const sum = (key: "pageBytes" | "blockBytes") => local.reduce((total, b) => total + b[key], 0);
    expect(sum("blockBytes")).toBeLessThanOrEqual(DEFAULT_BUDGETS.blockBytes);
    expect(sum("blockBytes")).toBeGreaterThan(DEFAULT_BUDGETS.blockBytes - markets.length);
    expect(sum("pageBytes")).toBeLessThanOrEqual(DEFAULT_BUDGETS.pageBytes);
    expect(shown(new MarketsSource(dir))).toEqual(markets.map(() => DEFAULT_BUDGETS));
  });

  const summarised = (id: string, showtimes: number) =>
    ({
      id,
      name: id,
      countries: ["GB"],
      snapshotId: "0".repeat(32),
      summary: {
        counts: { cinemas: 1, films: 1, showtimes },
        firstDate: null,
        lastDate: null,
        freshness: { asOf: null, stale: false },
      },
    }) as unknown as ReturnType<typeof readMarketsIndex>["markets"][number];
  test.each([
    // Half split evenly, half by showtimes.
    [
      [300, 100],
      [0.25 + 0.375, 0.25 + 0.125],
    ],
    [
      [1, 0],
      [0.75, 0.25],
    ],
    [
      [0, 0],
      [0.5, 0.5],
    ],
    [[5], [1]],
  ])("markets of %j showtimes take %j of the budgets", (showtimes, weights) => {
    const budgets = { pageBytes: 1 << 20, blockBytes: 1 << 24 };
    const markets = showtimes.map((n, i) => summarised(`m${i}`, n));
    expect(markets.map((m) => marketShare(budgets, m, markets))).toEqual(
      weights.map((w) => ({ pageBytes: Math.floor((1 << 20) * w), blockBytes: Math.floor((1 << 24) * w) })),
    );
  });

  test("no index at all: every request's 503 says so", () => {
    const source = new MarketsSource(path.join(work, "nothing"));
    expect(() => source.markets()).toThrow("markets.json: does not exist");
  });

  test("a folder that turns back into one snapshot is served as one", async () => {
    const dir = path.join(work, "turning");
    cpSync(built, dir, { recursive: true });
    const single = new SnapshotSource(dir);
    const folder = new FolderSource(dir, single, () => new MarketsSource(dir));
    expect(folder.markets?.market("gb")).toBeDefined();
    await buildFolder(dataset, dir);
    folder.look();
    expect(folder.markets).toBeUndefined();
    expect(single.current().manifest.market).toBeUndefined();
  });
});
