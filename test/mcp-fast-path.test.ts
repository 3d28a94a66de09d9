/**
 * What a tool call's fixed cost was cut with says what the slower code said (decision: MCP): the
 * text rendered from find_showtimes's listing is the page's, the local times counted without a Date
 * are Date's, the answer written into a lent buffer is the JSON of the message, and an answer's
 * headers are a fresh object each time.
 */
import { PagePool } from "../api/_core/format/primitives/page-buffer.js";
import { describe, expect, test } from "vitest";
import { localSpanOf, localTimeOf, type ZoneOffset } from "../api/_core/mcp/local-time.js";
import { jsonHeaders, serializeAnswer } from "../api/_core/mcp/post-transport.js";
import { renderListing, renderPage, renderShowtime } from "../api/_core/mcp/render-text.js";
import { type ShowtimeListing, showtimeListingOf } from "../api/_core/mcp/showtime-listing.js";

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
    const listing = showtimeListingOf(served as never) as unknown as ShowtimeListing;
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
  test("structured content as the API's bytes: the message's JSON", () => {
    for (const id of [7, "req-1"]) {
      const message = { jsonrpc: "2.0" as const, id, result };
      const json = { status: 200, headers: {}, body: Buffer.from('{"a":"é"}') };
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
