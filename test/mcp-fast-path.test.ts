/**
 * What a tool call's fixed cost was cut with says what the slower code said (decision: MCP): the
 * listing cut from the page's text is the listing parsed and written again, the text rendered from
 * it is the page's, the local times counted without a Date are Date's, the answer written into a
 * lent buffer is the JSON of the message, and an answer's headers are a fresh object each time.
 */
import fc from "fast-check";
import { PagePool } from "../api/_core/format/primitives/page-buffer.js";
import { describe, expect, test } from "vitest";
import { readArray, readObject, valueEnd } from "../api/_core/mcp/json-members.js";
import { localSpanOf, localTimeOf, type ZoneOffset } from "../api/_core/mcp/local-time.js";
import { jsonHeaders, serializeAnswer } from "../api/_core/mcp/post-transport.js";
import { renderListing, renderPage, renderShowtime } from "../api/_core/mcp/render-text.js";
import { listingCut } from "../api/_core/mcp/listing-cut.js";
import { type ShowtimeListing, showtimeListingJson, showtimeListingOf } from "../api/_core/mcp/showtime-listing.js";

/** The members of the object at `at` as [key, value] texts, or the reader's -1. */
function membersAt(json: string, at = 0): Array<[string, string]> | -1 {
  const members: Array<[string, string]> = [];
  const end = readObject(json, at, (start, colon) => {
    const end = valueEnd(json, colon + 1);
    members.push([json.slice(start, colon), json.slice(colon + 1, end)]);
    return end;
  });
  return end === -1 ? -1 : members;
}

describe("reading members where they lie in JSON.stringify's text", () => {
  test.each<[string, string, Array<[string, string]> | -1]>([
    ["an empty object", "{}", []],
    [
      "strings, numbers, literals",
      '{"a":"x","b":-1.5e3,"c":true,"d":null}',
      [
        ['"a"', '"x"'],
        ['"b"', "-1.5e3"],
        ['"c"', "true"],
        ['"d"', "null"],
      ],
    ],
    [
      "nested values, braces inside strings",
      '{"a":{"b":[1,{"c":"}]"}]},"e":[]}',
      [
        ['"a"', '{"b":[1,{"c":"}]"}]}'],
        ['"e"', "[]"],
      ],
    ],
    ["white space, which JSON.stringify never writes", '{"a": 1}', -1],
    ["white space before a string", '{"a": "x"}', -1],
    ["white space after a value", '{"a":1 }', -1],
    ["a text cut short in a string", '{"a":"x', -1],
    ["a text cut short in a value", '{"a":{"b":1}', -1],
    ["a text cut short after a number", '{"a":1', -1],
    ["no object there", '["a"]', -1],
    ["a member without a value", '{"a":,"b":1}', -1],
  ])("%s: %s", (_what, json, expected) => {
    expect(membersAt(json)).toEqual(expected);
  });

  test("an array's elements; -1 for one that does not close", () => {
    const spans: string[] = [];
    const json = '[{"a":1},"b",[2]]';
    const end = readArray(json, 0, (at) => {
      const end = valueEnd(json, at);
      spans.push(json.slice(at, end));
      return end;
    });
    expect([end, spans]).toEqual([json.length, ['{"a":1}', '"b"', "[2]"]]);
    expect(readArray("[1,2", 0, (at) => valueEnd("[1,2", at))).toBe(-1);
  });
});

const provenance = { observedAt: "2026-11-22T06:00Z", provider: "feed", externalId: "x1" };
const film = (id: string, title = "The Film") => ({ id, title, durationMinutes: 90, provenance });
const cinema = (id: string, timeZone?: string) => ({
  id,
  name: "Kino Eins",
  location: { countryCode: "DE", locality: "Berlin", latitude: 52.5, longitude: 13.37, timeZone },
  provenance,
});
const showtime = (id: string, filmId: string, cinemaId: string, extra: Record<string, unknown> = {}) => ({
  id,
  filmId,
  cinemaId,
  startsAt: "2026-11-27T18:30:00Z",
  endsAt: "2026-11-27T20:30:00Z",
  attributeIds: ["format-imax"],
  ...extra,
  provenance,
  film: film(filmId),
  cinema: cinema(cinemaId, "Europe/Berlin"),
});
const page = (data: unknown[], more: Record<string, unknown> = {}) => ({
  data,
  pagination: { nextCursor: null, hasMore: false },
  ...more,
  freshness: { observedAt: "2026-11-22T06:00Z" },
});

/** The listing as it was made: the page parsed, listed, written again. */
const parsedListing = (json: string) => JSON.stringify(showtimeListingOf(JSON.parse(json)));

describe("find_showtimes's listing cut from the page's text: the listing parsed and written again", () => {
  const two = [showtime("s1", "f1", "c1"), showtime("s2", "f2", "c1", { screenName: "Saal 2", distanceKm: 1.5 })];
  test.each<[string, unknown]>([
    ["a page of showtimes at one cinema, of two films", page(two)],
    ["a page that repeats a film three times", page([...two, showtime("s3", "f1", "c1")])],
    ["an empty page", page([])],
    ["a page that matched near spellings, members in another order", { nameMatch: "near", ...page(two) }],
    ["an escape in a string (read the slow way)", page([showtime('s"1', "f1", "c1"), showtime("s\\2", "f1", "c1")])],
    ["text beyond ASCII", page([showtime("s1", "f-amélie", "c1"), showtime("s2", "f-東京", "c1")])],
    [
      "a record with its id after other members",
      page([{ ...showtime("s1", "f1", "c1"), film: { title: "T", id: "f1" } }]),
    ],
    ["a showtime without its film or cinema", page([{ id: "s1", filmId: "f1", cinemaId: "c1", provenance }])],
    ["an embed that is no record (null)", page([{ ...showtime("s1", "f1", "c1"), film: null }])],
    ["a film without an id", page([{ ...showtime("s1", "f1", "c1"), film: { title: "T" } }])],
    ["a film whose id is a number", page([{ ...showtime("s1", "f1", "c1"), film: { id: 7, title: "T" } }])],
    ["a page that has films of its own", { ...page(two), films: [] }],
  ])("%s", (_what, value) => {
    const json = JSON.stringify(value);
    expect(showtimeListingJson(json)).toBe(parsedListing(json));
  });

  test.each<[string, unknown, boolean]>([
    ["a page as the API writes it", page(two), true],
    ["text beyond ASCII", page([showtime("s1", "f-東京", "c1")]), true],
    ["an escape in a string", page([showtime('s"1', "f1", "c1")]), false],
    ["an embed that is no record", page([{ ...showtime("s1", "f1", "c1"), cinema: null }]), false],
  ])("cut from the text, not parsed: %s (%s)", (_what, value, cut) => {
    expect(listingCut(JSON.stringify(value)) !== undefined).toBe(cut);
  });

  test("a page without data, or not JSON at all, fails as parsing it did", () => {
    for (const json of ['{"pagination":{}}', '{"data":[', "[]"]) {
      expect(() => parsedListing(json)).toThrow();
      expect(() => showtimeListingJson(json)).toThrow();
    }
  });

  test("any page of records with any text in them", () => {
    const text = fc.oneof(fc.string(), fc.constantFrom("f1", "f2", "c1", 'a"b', "x\\y", "é", "\n"));
    const record = fc.record({ id: text, title: text, provenance: fc.constant(provenance) }, { requiredKeys: ["id"] });
    const entry = fc.record(
      { id: text, filmId: text, cinemaId: text, screenName: text, provenance: fc.constant(provenance), film: record },
      { requiredKeys: ["id"] },
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), (data) => {
        const json = JSON.stringify(page(data));
        expect(showtimeListingJson(json)).toBe(parsedListing(json));
      }),
      { numRuns: 300 },
    );
  });
});

describe("find_showtimes's text from its listing: what the page's showtimes with their embeds read as", () => {
  const zoneOffset: ZoneOffset = (zone) => (zone === "Europe/Berlin" ? 3600 : undefined);
  test.each<[string, unknown[]]>([
    ["two films at one cinema", [showtime("s1", "f1", "c1"), showtime("s2", "f2", "c1", { bookingUrl: "https://b" })]],
    [
      "a film without a title, a cinema without a zone",
      [{ ...showtime("s1", "f1", "c2"), film: { id: "f1" }, cinema: cinema("c2") }],
    ],
  ])("%s", (_what, data) => {
    const served = { ...page(data), pagination: { nextCursor: "abc", hasMore: true } };
    const listing = JSON.parse(showtimeListingJson(JSON.stringify(served))) as ShowtimeListing;
    const asServed = renderPage(served as never, renderShowtime, "showtime", "find_showtimes", zoneOffset);
    expect(renderListing(listing, zoneOffset)).toBe(asServed);
  });
});

describe("local times counted without a Date: what Date's UTC fields say", () => {
  const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const two = (n: number) => String(n).padStart(2, "0");
  /** The wall clock as it was written with a Date. */
  const byDate = (ms: number, year = true) => {
    const t = new Date(ms);
    const y = year ? ` ${t.getUTCFullYear()}` : "";
    const date = `${WEEKDAYS[t.getUTCDay()]} ${t.getUTCDate()} ${MONTHS[t.getUTCMonth()]}${y}`;
    return `${date}, ${two(t.getUTCHours())}:${two(t.getUTCMinutes())}`;
  };
  const none: ZoneOffset = () => undefined;

  test("a day every five weeks from year 0 to 9999, each at another minute, written in the API's form", () => {
    // Years 0 to 99 are written as four digits; Date.UTC counts them from 1900, as the expression did.
    for (
      let ms = Date.UTC(2000, 0, 1) - 2000 * 365.2425 * 86_400_000;
      ms < Date.UTC(10_000, 0, 1);
      ms += 3_213_261_000
    ) {
      const iso = new Date(ms).toISOString();
      if (!/^\d{4}-/.test(iso)) continue;
      const [year, month, day, hour, minute] = iso.split(/[-T:]/).map(Number) as number[];
      const expected = byDate(Date.UTC(year!, month! - 1, day, hour, minute));
      expect(localTimeOf(`${iso.slice(0, 19)}Z`, undefined, none)).toBe(`${expected} UTC`);
      expect(localSpanOf(`${iso.slice(0, 19)}Z`, `${iso.slice(0, 10)}T23:59:00Z`, undefined, none)).toBe(
        `${expected}–23:59 UTC`,
      );
    }
  });

  test.each<[string, string]>([
    ["2026-11-27T18:30:00Z", "Fri 27 Nov 2026, 18:30 UTC"],
    ["2026-11-27T18:30:00+05:30", "Fri 27 Nov 2026, 18:30 UTC+05:30"],
    ["2026-11-27T18:30:00-00:00", "Fri 27 Nov 2026, 18:30 UTC-00:00"],
    // The forms the API does not write are read by the expression, as before.
    ["2026-11-27T18:30Z", "Fri 27 Nov 2026, 18:30 UTC"],
    ["2026-11-27T18:30:00.5Z", "Fri 27 Nov 2026, 18:30 UTC"],
    ["0050-01-01T00:00:00Z", "Sun 1 Jan 1950, 00:00 UTC"],
    ["2026-13-01T00:00:00Z", "Fri 1 Jan 2027, 00:00 UTC"],
    ["2026-11-27T18:3a:00Z", "2026-11-27T18:3a:00Z"],
    ["2026-11-27 18:30:00Z", "2026-11-27 18:30:00Z"],
    ["2026-11-27T18:30:00*05:30", "2026-11-27T18:30:00*05:30"],
  ])("%s: %s", (written, expected) => {
    expect(localTimeOf(written, undefined, none)).toBe(expected);
  });

  test("an end on the same day gives its time; on another, its day", () => {
    const berlin: ZoneOffset = () => 3600;
    expect(localSpanOf("2026-11-27T18:30:00Z", "2026-11-27T20:56:00Z", "Europe/Berlin", berlin)).toBe(
      "Fri 27 Nov 2026, 19:30–21:56 Europe/Berlin",
    );
    expect(localSpanOf("2026-11-27T22:30:00Z", "2026-11-28T00:26:00Z", "Europe/Berlin", berlin)).toBe(
      "Fri 27 Nov 2026, 23:30–Sat 28 Nov, 01:26 Europe/Berlin",
    );
  });
});

describe("an answer written into a lent buffer", () => {
  const result = { content: [{ type: "text", text: 'say "hi" · 19:30–21:56\n' }], structuredContent: { a: "é" } };
  test.each<[string, string | Buffer]>([
    ["structured content as text", '{"a":"é"}'],
    ["structured content as the API's bytes", Buffer.from('{"a":"é"}')],
  ])("%s: the message's JSON", (_what, structured) => {
    for (const id of [7, "req-1"]) {
      const message = { jsonrpc: "2.0" as const, id, result };
      const json = typeof structured === "string" ? structured : { status: 200, headers: {}, body: structured };
      const answer = serializeAnswer(message as never, json, new PagePool());
      expect(answer.body.toString()).toBe(JSON.stringify(message));
      answer.release?.();
    }
  });

  test("a tool error (no structured content) is the message's JSON, in memory of its own", () => {
    const message = { jsonrpc: "2.0" as const, id: 1, result: { content: [], isError: true } };
    const answer = serializeAnswer(message as never, undefined, new PagePool());
    expect([answer.body.toString(), answer.release]).toEqual([JSON.stringify(message), undefined]);
  });

  test("each answer's headers are an object of its own", () => {
    const first = jsonHeaders();
    first.vary = "x";
    expect(jsonHeaders()).toEqual({ "content-type": "application/json", "cache-control": "no-store" });
  });
});
