/**
 * What a market is (decision: markets; api/_core/format/layout/market-rules.ts), rule by rule at
 * each bound and just past it; the same rules hold a multi-market folder's index and a manifest's
 * `market` (parsed strictly: a wrong one is a SnapshotError, never a crash), the index's summary of
 * what each market holds too (format 2; format 1, without them, is read and lists no market), and a
 * market's countries follow the cinema schema's country-code rule.
 */
import { describe, expect, test } from "vitest";
import {
  checkMarkets,
  type Market,
  MARKET_BOUNDS,
  type MarketIssue,
  RESERVED_MARKET_IDS,
} from "../api/_core/format/layout/market-rules.js";
import {
  encodeMarketsIndex,
  type MarketsIndex,
  marketsIndexId,
  parseMarketsIndex,
  requireSummary,
} from "../api/_core/format/layout/markets-index.js";
import type { MarketSummary } from "../api/_core/format/layout/market-summary.js";
import { encodeManifest, type Manifest, parseManifest } from "../api/_core/format/layout/manifest.js";
import { SnapshotError } from "../api/_core/format/primitives/errors.js";
import { locationSchema } from "../build/validate/schemas.js";

const gb: Market = { id: "gb", name: "United Kingdom", countries: ["GB"] };
/** The n-th two-letter code: AA, AB, ... (676 of them). */
const code = (n: number) => String.fromCharCode(65 + Math.floor(n / 26), 65 + (n % 26));
const codes = (n: number) => Array.from({ length: n }, (_, i) => code(i));
/** n markets of one country each, ids m0, m1, ... */
const marketsOf = (n: number): Market[] =>
  Array.from({ length: n }, (_, i) => ({ id: `m${i}`, name: `Market ${i}`, countries: [code(i)] }));
const only = (fields: Partial<Record<keyof Market, unknown>>) => [{ ...gb, ...fields }];

/** Issues as [code, index, path, message], the message cut to what a case names. */
const issues = (value: unknown) =>
  checkMarkets(value).map((i: MarketIssue) => [i.code, i.index ?? null, i.path, i.message] as const);

describe("markets.json: valid at each bound", () => {
  const [, maxMarkets] = MARKET_BOUNDS.markets;
  test.each([
    ["one market, the fewest", [gb]],
    [`${maxMarkets} markets, the most`, marketsOf(maxMarkets)],
    ["an id of 2 characters, the shortest", only({ id: "g1" })],
    ["an id of 32 characters, the longest", only({ id: "a-".repeat(16) })],
    ["an id of digits and '-'", only({ id: "au-nz" })],
    ["a name of 1 character", only({ name: "X" })],
    ["a name of 120 characters, counted in code points", only({ name: "🎬".repeat(120) })],
    ["1 country, the fewest", only({ countries: ["DE"] })],
    ["250 countries, the most", only({ countries: codes(250) })],
  ])("%s", (_, value) => {
    expect(issues(value)).toEqual([]);
  });
});

describe("markets.json: each rule broken just past its bound", () => {
  const invalid = (index: number | null, path: string, message: string) =>
    [["invalid_market", index, path, message]] as const;
  test.each([
    ["not an array", { gb }, invalid(null, "", expect.stringMatching(/^must hold a JSON array of markets/))],
    ["no market", [], invalid(null, "", "must hold 1..100 markets (got 0)")],
    ["101 markets", marketsOf(101), invalid(null, "", "must hold 1..100 markets (got 101)")],
    ["a market that is no object", [gb, ["gb"]], invalid(1, "", "must be a JSON object with id, name and countries")],
    ["a market without an id", [{ name: "X", countries: ["GB"] }], invalid(0, "id", "is required")],
    [
      "a field a market does not have",
      only({ currency: "GBP" } as object),
      invalid(0, "currency", "is not a field of a market (id, name, countries)"),
    ],
    ["an id that is no string", only({ id: 44 }), invalid(0, "id", "must be a string")],
    [
      "an id of 1 character",
      only({ id: "g" }),
      invalid(0, "id", 'must be 2..32 lowercase letters, digits or "-"; received "g"'),
    ],
    ["an id of 33 characters", only({ id: "a".repeat(33) }), invalid(0, "id", expect.stringMatching(/^must be 2..32/))],
    ["an id in capitals", only({ id: "GB" }), invalid(0, "id", expect.stringMatching(/^must be 2..32/))],
    ["an id with '_'", only({ id: "g_b" }), invalid(0, "id", expect.stringMatching(/^must be 2..32/))],
    ["an empty name", only({ name: "" }), invalid(0, "name", "must be 1..120 characters long (got 0)")],
    [
      "a name of 121 characters",
      only({ name: "é".repeat(121) }),
      invalid(0, "name", "must be 1..120 characters long (got 121)"),
    ],
    ["a name that is no string", only({ name: ["UK"] }), invalid(0, "name", "must be a string")],
    [
      "countries that are no list",
      only({ countries: "GB" }),
      invalid(0, "countries", "must be an array of country codes"),
    ],
    ["no country", only({ countries: [] }), invalid(0, "countries", "must hold 1..250 country codes (got 0)")],
    [
      "251 countries",
      only({ countries: codes(251) }),
      invalid(0, "countries", "must hold 1..250 country codes (got 251)"),
    ],
    [
      "a country in lowercase",
      only({ countries: ["GB", "de"] }),
      invalid(0, "countries[1]", 'must be an ISO 3166-1 alpha-2 code: two uppercase letters; received "de"'),
    ],
    ["a country of three letters", only({ countries: ["GBR"] }), invalid(0, "countries[0]", expect.any(String))],
    ["a country that is no string", only({ countries: [826] }), invalid(0, "countries[0]", expect.any(String))],
    [
      "a country listed twice",
      only({ countries: ["DE", "AT", "DE"] }),
      invalid(0, "countries[2]", '"DE" is listed twice (first at countries[0])'),
    ],
  ])("%s", (_, value, expected) => {
    expect(issues(value)).toEqual(expected);
  });

  test.each(RESERVED_MARKET_IDS.filter((id) => /^[a-z0-9-]{2,32}$/.test(id)))("the reserved id %s", (id) => {
    expect(issues(only({ id }))).toEqual([
      ["invalid_market", 0, "id", `"${id}" is reserved: the server answers /${id} itself; choose another id`],
    ]);
  });

  test("an id used twice is named where it is used again, with where it was first", () => {
    const value = [gb, { id: "ie", name: "Ireland", countries: ["IE"] }, { ...gb, countries: ["GG"] }];
    expect(issues(value)).toEqual([["duplicate_market", 2, "id", '"gb" is already the id of the market at [0]']]);
  });

  test("a country in two markets names both", () => {
    const value = [
      { id: "dach", name: "DACH", countries: ["DE", "AT", "CH"] },
      { id: "de", name: "Germany", countries: ["FR", "DE"] },
    ];
    expect(issues(value)).toEqual([
      [
        "country_in_two_markets",
        1,
        "countries[1]",
        '"DE" is in market "de" and in market "dach" (at [0]): a country\'s cinemas belong to one market',
      ],
    ]);
  });

  test("every rule a list breaks is named in one pass", () => {
    const value = [{ id: "V1", name: "", countries: [] }, { id: "gb" }];
    expect(issues(value).map(([c, index, path]) => [c, index, path])).toEqual([
      ["invalid_market", 0, "id"],
      ["invalid_market", 0, "name"],
      ["invalid_market", 0, "countries"],
      ["invalid_market", 1, "name"],
      ["invalid_market", 1, "countries"],
    ]);
  });
});

test.each(["GB", "DE", "ZZ", "gb", "G", "GBR", "G1", " GB", ""])(
  "a market's country %j follows the cinema schema's countryCode rule",
  (country) => {
    const cinema = locationSchema.shape.countryCode.safeParse(country);
    const market = issues(only({ countries: [country] }));
    expect(market.length === 0).toBe(cinema.success);
    if (!cinema.success) expect(market[0]![3]).toContain(cinema.error.issues[0]!.message);
  },
);

describe("a multi-market folder's index, parsed strictly", () => {
  const summary: MarketSummary = {
    counts: { cinemas: 2, films: 3, showtimes: 40 },
    firstDate: "2026-11-24",
    lastDate: "2026-12-01",
    freshness: { observedAt: "2026-11-24T05:00:00Z", sourceUpdatedAt: "2026-11-23T22:00:00+01:00" },
  };
  const empty: MarketSummary = {
    counts: { cinemas: 0, films: 0, showtimes: 0 },
    firstDate: null,
    lastDate: null,
    freshness: { observedAt: "1970-01-01T00:00:00Z" },
  };
  const index: MarketsIndex = {
    format: 2,
    markets: [
      { ...gb, snapshotId: "0123456789abcdef0123456789abcdef", summary },
      {
        id: "dach",
        name: "Germany, Austria, Switzerland",
        countries: ["DE", "AT", "CH"],
        snapshotId: "f".repeat(32),
        summary: empty,
      },
    ],
  };
  /** The index's text with its checksum made again after `edit`, so only the edit is at fault. */
  const edited = (edit: (value: Record<string, any>) => void) => {
    const value = structuredClone(index) as Record<string, any>;
    edit(value);
    return encodeMarketsIndex(value as MarketsIndex).toString();
  };
  /** The same index as format 1 wrote it: no summaries. */
  const formatOne = edited((v) => {
    v.format = 1;
    for (const market of v.markets) delete market.summary;
  });

  test("what the build writes is what the server reads", () => {
    expect(parseMarketsIndex(encodeMarketsIndex(index).toString())).toEqual(index);
    expect(index.markets.map(requireSummary)).toEqual([summary, empty]);
  });

  test("an index of format 1 (before the summaries) is read, but says nothing of what the markets hold", () => {
    const read = parseMarketsIndex(formatOne);
    expect(read.markets.map((m) => m.snapshotId)).toEqual(index.markets.map((m) => m.snapshotId));
    expect(marketsIndexId(read)).toBe(marketsIndexId(index));
    expect(() => requireSummary(read.markets[0]!)).toThrow(
      new SnapshotError(
        "markets.json",
        "is format 1, which does not say what each market holds (GET /markets): rebuild the snapshot (npm run build)",
      ),
    );
  });

  const wrongSummary = (edit: (summary: Record<string, any>) => void) => edited((v) => edit(v.markets[0].summary));
  test.each([
    ["not JSON", "{", "markets.json: is not JSON"],
    ["not an object", "[]", "markets.json: is not a JSON object"],
    ["another format", edited((v) => (v.format = 3)), /is format 3, this server reads format 2: rebuild/],
    ["a changed byte", encodeMarketsIndex(index).toString().replace("Kingdom", "Kingdon"), "fails its checksum"],
    ["a field it does not have", edited((v) => (v.builtAt = 1)), "has the wrong shape"],
    ["no market", edited((v) => (v.markets = [])), "markets must hold 1..100 markets (got 0)"],
    ["a reserved id", edited((v) => (v.markets[1].id = "mcp")), 'markets[1].id "mcp" is reserved'],
    ["a country in two markets", edited((v) => v.markets[1].countries.push("GB")), "markets[1].countries[3]"],
    ["an id used twice", edited((v) => (v.markets[1].id = "gb")), "markets[1].id"],
    ["no snapshot id", edited((v) => delete v.markets[0].snapshotId), "markets[0].snapshotId is not a snapshot id"],
    ["a field a market does not have", edited((v) => (v.markets[0].path = "/x")), "markets[0].path is not a field"],
    ["format 1 with a summary", edited((v) => (v.format = 1)), "markets[0].summary is not a field"],
    ["format 2 without one", edited((v) => delete v.markets[1].summary), "markets[1].summary is missing"],
    ["a summary not an object", edited((v) => (v.markets[0].summary = [])), "markets[0].summary has the wrong shape"],
    ["a summary's extra field", wrongSummary((m) => (m.days = 8)), "markets[0].summary has the wrong shape"],
    ["no counts", wrongSummary((m) => delete m.counts), "markets[0].summary.counts has the wrong shape"],
    ["a count of attributes", wrongSummary((m) => (m.counts.attributes = 1)), "summary.counts has the wrong shape"],
    ["a count below 0", wrongSummary((m) => (m.counts.films = -1)), "markets[0].summary.counts.films is not a count"],
    ["a count not whole", wrongSummary((m) => (m.counts.showtimes = 1.5)), "summary.counts.showtimes is not a count"],
    ["one date null", wrongSummary((m) => (m.lastDate = null)), "markets[0].summary.lastDate is not a date"],
    ["no such day", wrongSummary((m) => (m.firstDate = "2026-02-29")), "markets[0].summary.firstDate is not a date"],
    ["a date-time", wrongSummary((m) => (m.lastDate = "2026-12-01T00:00:00Z")), "summary.lastDate is not a date"],
    ["dates backwards", wrongSummary((m) => (m.firstDate = "2026-12-02")), "summary.firstDate is after lastDate"],
    ["no observedAt", wrongSummary((m) => delete m.freshness.observedAt), "summary.freshness has the wrong shape"],
    ["a bad instant", wrongSummary((m) => (m.freshness.sourceUpdatedAt = "yesterday")), "freshness has the wrong"],
    ["freshness's extra field", wrongSummary((m) => (m.freshness.at = "x")), "summary.freshness has the wrong shape"],
  ])("%s is a SnapshotError", (_, text, reason) => {
    expect(() => parseMarketsIndex(text)).toThrow(SnapshotError);
    expect(() => parseMarketsIndex(text)).toThrow(reason);
  });

  test.each([
    ["a day apart", "2026-11-30", "2026-12-01"],
    ["the same day", "2026-12-01", "2026-12-01"],
    ["a leap day", "2028-02-29", "2028-02-29"],
  ])("dates %s are read", (_, firstDate, lastDate) => {
    const text = edited((v) => Object.assign(v.markets[0].summary, { firstDate, lastDate }));
    expect(parseMarketsIndex(text).markets[0]!.summary).toMatchObject({ firstDate, lastDate });
  });
});

describe("a manifest's market", () => {
  const manifest = {
    format: 4,
    snapshotId: "0123456789abcdef0123456789abcdef",
    defaultLimit: 50,
    counts: { cinemas: 0, films: 0, showtimes: 0, attributes: 0 },
    freshness: { observedAt: "1970-01-01T00:00:00Z" },
    files: Object.fromEntries(
      ["bodies.blocks", "bodies.index", "records.blocks", "index.pages", "history.pages"].map((f) => [
        f,
        { bytes: 1, digest: 1 },
      ]),
    ),
    history: { id: "0123456789abcdef0123456789abcdef", generation: 0 },
  } as Manifest;

  test("is absent from a snapshot built without markets, and kept as written in one with", () => {
    expect(encodeManifest(manifest).toString()).not.toContain("market");
    const withMarket = { ...manifest, market: gb };
    expect(parseManifest(encodeManifest(withMarket).toString())).toEqual(withMarket);
  });

  test.each([
    ["an id the rules refuse", { ...gb, id: "v1" }],
    ["no countries", { ...gb, countries: [] }],
    ["a field a market does not have", { ...gb, snapshotId: "x" }],
    ["not an object", "gb"],
  ])("with %s is the wrong shape", (_, market) => {
    const text = encodeManifest({ ...manifest, market } as unknown as Manifest).toString();
    expect(() => parseManifest(text)).toThrow("manifest.json: has the wrong shape");
  });
});
