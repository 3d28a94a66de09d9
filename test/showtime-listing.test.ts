/**
 * find_showtimes's listing composed by the core (decision: MCP, a page of showtimes) is, byte for
 * byte, the page `/v1/showtimes` answers for the same URL, parsed, listed and written again: each
 * showtime without its film, cinema and provenance, each film and cinema once without its
 * provenance, the page's freshness. And a record's provenance is left out where it lies, whatever
 * the record's text holds.
 */
import fc from "fast-check";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { provenanceSpan, writeWithoutProvenance } from "../api/_core/compose/without-provenance.js";
import { PageBuffer } from "../api/_core/format/primitives/page-buffer.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { buildDataset, generateDataset } from "./helpers/dataset.js";
import { expectListingOfPage, listingServer } from "./helpers/listing.js";

/** The record's text as written without its provenance. */
function without(json: string): string {
  const out = new PageBuffer(16);
  writeWithoutProvenance(Buffer.from(json), out);
  return out.finish().toString("utf8");
}

/** What JSON.stringify writes of the record with its provenance deleted. */
function reference(json: string): string {
  const { provenance: _provenance, ...rest } = JSON.parse(json);
  return JSON.stringify(rest);
}

describe("a record without its provenance", () => {
  const p = '"provenance":{"provider":"x","externalId":"a}\\"b"}';
  test.each([
    ["last", `{"id":"f1","title":"T",${p}}`],
    ["first", `{${p},"id":"f1"}`],
    ["between two members", `{"id":"f1",${p},"title":"T"}`],
    ["the only member", `{${p}}`],
    ["none", '{"id":"f1","title":"T"}'],
    ["an empty object", "{}"],
    ["a nested provenance before the record's own", `{"a":{"provenance":1},"b":[{"provenance":2}],${p}}`],
    ["a key that only starts so", `{"provenanceX":1,"xprovenance":2,${p}}`],
    ["quotes, backslashes and braces in strings", `{"a":"\\\\","b":"\\"}{[","c":"\\\\\\"",${p}}`],
    ["text beyond ASCII", `{"title":"東京 🎬 é",${p},"z":"ü"}`],
    ["numbers, literals and empty values", `{"a":-1500.25,"b":true,"c":null,"d":[],"e":{},${p},"f":0}`],
  ])("%s", (_what, json) => {
    expect(without(json)).toBe(reference(json));
  });

  test.each([
    ["not an object", '["provenance"]'],
    ["a string that does not close", '{"id":"f1,"provenance":{}}'],
    ["a value cut short", '{"id":"f1","provenance":{"a":1}'],
    ["white space between members", '{"id":"f1", "provenance":{}}'],
    ["a member without a value", '{"id":,"provenance":{}}'],
    ["no colon after a key", '{"id","provenance":{}}'],
  ])("text that is no record as written: left as it is (%s)", (_what, json) => {
    expect(provenanceSpan(Buffer.from(json))).toBeUndefined();
    expect(without(json)).toBe(json);
  });

  test("any record with its provenance anywhere among any members", () => {
    const key = fc.oneof(fc.string(), fc.constantFrom("provenance", "provenanceX", 'a"b', "\\"));
    const value = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), fc.option(value), fc.nat(), (members, p, at) => {
        const entries = Object.entries(members).filter(([k]) => k !== "provenance");
        if (p !== null) entries.splice(at % (entries.length + 1), 0, ["provenance", p]);
        const json = JSON.stringify(Object.fromEntries(entries));
        expect(without(json)).toBe(reference(json));
      }),
      { numRuns: 500 },
    );
  });
});

describe("the listing of a page of showtimes, composed", () => {
  let root: string;
  let ask: ReturnType<typeof listingServer>;
  let source: SnapshotSource;
  const dataset = generateDataset({ seed: 20_261_127, showtimes: 240 });
  const dates = [...new Set(dataset.showtimes.map((s) => (s.startsAt as string).slice(0, 10)))].sort();

  beforeAll(async () => {
    root = makeTempDir("listing");
    const snapshotDir = path.join(root, "snapshot");
    await buildDataset(dataset, root, snapshotDir);
    source = new SnapshotSource(snapshotDir);
    ask = listingServer(source);
  });
  afterAll(() => {
    source.current().close();
    removeDir(root);
  });

  /** Every page of a query, the listing of each against its page's, followed by its cursors. */
  function walk(query: string): number {
    let url = `/v1/showtimes?${query}`;
    let showtimes = 0;
    for (;;) {
      const page = expectListingOfPage(ask, url);
      showtimes += page.data.length;
      if (!page.pagination.nextCursor) return showtimes;
      url = `/v1/showtimes?${query}&cursor=${encodeURIComponent(page.pagination.nextCursor)}`;
    }
  }

  test.each(["film,cinema", "film", "cinema", "cinema,film", ""])(
    "include=%s: at each cinema on each date",
    (include) => {
      let showtimes = 0;
      const embeds = include && `&include=${include}`;
      for (const cinema of dataset.cinemas)
        for (const date of dates)
          showtimes += walk(`cinemaId=${encodeURIComponent(cinema.id as string)}&date=${date}&limit=7${embeds}`);
      // Not vacuous: the pages held every showtime of the dataset.
      expect(showtimes).toBe(dataset.showtimes.length);
    },
  );

  test.each([
    ["near a point, with distances", "near=51.5,-0.125&radiusKm=50&limit=20&include=film,cinema"],
    ["of a film, one a page", `filmId=${encodeURIComponent("film/2049")}&limit=1&include=film,cinema`],
    ["every showtime, 20 a page", "limit=20&include=film,cinema"],
    ["none matching", `date=2001-01-01&include=film,cinema`],
  ])("%s", (_what, query) => {
    walk(query);
  });

  test("a listing and its page are kept apart by the cache: each asked again is what it was", () => {
    const url = "/v1/showtimes?limit=5&include=film,cinema";
    const first = [ask(url).text, ask(url, true).text];
    for (let i = 0; i < 3; i++) expect([ask(url).text, ask(url, true).text]).toEqual(first);
    expect(first[0]).not.toBe(first[1]);
  });

  test("a listing is of /v1/showtimes: any other list asked so is an internal error, never a page", () => {
    expect(() => ask("/v1/films?limit=5", true)).toThrow(/listing/);
  });
});
