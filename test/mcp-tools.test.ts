/**
 * The tool table and what it is made of (decision: MCP): the committed response schemas are the
 * generated ones, each output schema is self-contained and holds a page to the tools' limit, the
 * local times of the text come from the snapshot's zone offsets, and the text reads a few lines per
 * record, on one line each whatever the data holds, cut at a bound that keeps an answer under 4.5 MB.
 */
import { readFileSync } from "node:fs";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, test } from "vitest";
import { offsetAt, piecesOf } from "../api/_core/format/layout/zone-days.js";
import { MAX_RECORD_BYTES } from "../api/_core/format/layout/showtime-fields.js";
import { callTool, MAX_TEXT_LENGTH, type ToolContext } from "../api/_core/mcp/call-tool.js";
import { PostTransport } from "../api/_core/mcp/post-transport.js";
import { localTimeOf, type ZoneOffset } from "../api/_core/mcp/local-time.js";
import { renderCinema, renderFilm, renderPage, renderShowtime } from "../api/_core/mcp/render-text.js";
import { showtimeListingOf } from "../api/_core/mcp/showtime-listing.js";
import { TOOL_MAX_LIMIT } from "../api/_core/mcp/tool-arguments.js";
import type { JsonSchema } from "../api/_core/mcp/tool-schemas.js";
import { toolDefinitions, TOOLS_BY_NAME } from "../api/_core/mcp/tools.js";
import { RECORD_SCHEMAS_FILE, renderRecordSchemasModule } from "../build/openapi/mcp-schemas.js";
import { EXAMPLES } from "../build/openapi/examples.js";

describe("the response schemas the tools declare", () => {
  test("api/_core/mcp/record-schemas.ts is the generated file (refresh: npx tsx build/openapi/openapi.ts)", () => {
    expect(readFileSync(RECORD_SCHEMAS_FILE, "utf8")).toBe(renderRecordSchemasModule());
  });

  // The validator the SDK's client checks structured content with.
  const validator = new AjvJsonSchemaValidator();
  const schemaOf = (tool: string) => toolDefinitions().find((d) => d.name === tool)!.outputSchema as object;
  const isValid = (tool: string, value: unknown) => validator.getValidator(schemaOf(tool) as never)(value).valid;

  test.each(toolDefinitions().map((d) => [d.name as string]))("%s: a self-contained schema that compiles", (tool) => {
    const schema = schemaOf(tool);
    expect(JSON.stringify(schema)).not.toContain("#/components/");
    expect(() => validator.getValidator(schema as never)).not.toThrow();
  });

  const page = {
    data: [] as unknown[],
    pagination: { nextCursor: null, hasMore: false },
    freshness: EXAMPLES.Freshness,
  };

  test.each([
    ["20 films, the tools' limit", TOOL_MAX_LIMIT, true],
    ["21 films, one past it", TOOL_MAX_LIMIT + 1, false],
  ])("find_films: %s", (_what, count, valid) => {
    const films = Array.from({ length: count }, (_, i) => ({ ...(EXAMPLES.Film as object), id: `film-${i}` }));
    expect(isValid("find_films", { ...page, data: films })).toBe(valid);
  });

  test("a member the API never sends is refused", () => {
    expect(isValid("get_film", { data: EXAMPLES.Film, freshness: EXAMPLES.Freshness })).toBe(true);
    expect(isValid("get_film", { data: EXAMPLES.Film, freshness: EXAMPLES.Freshness, x: 1 })).toBe(false);
  });
});

describe("find_showtimes's listing: the API's page, each film and cinema once, no provenance", () => {
  const validator = new AjvJsonSchemaValidator();
  const schema = toolDefinitions().find((d) => d.name === "find_showtimes")!.outputSchema as object;
  const isValid = (value: unknown) => validator.getValidator(schema as never)(value).valid;
  const served = { ...(EXAMPLES.Showtime as object), distanceKm: 1.2, film: EXAMPLES.Film, cinema: EXAMPLES.Cinema };
  const apiPage = (count: number) => ({
    data: Array.from({ length: count }, (_, i) => ({ ...served, id: `s${i}` })),
    pagination: { nextCursor: null, hasMore: false },
    freshness: EXAMPLES.Freshness,
  });
  const listing = (count: number) => showtimeListingOf(apiPage(count) as never) as any;

  test("20 showtimes of one film at one cinema: the film and the cinema once, in a valid listing", () => {
    const page = listing(TOOL_MAX_LIMIT);
    expect(isValid(page)).toBe(true);
    expect([page.data.length, page.films.length, page.cinemas.length]).toEqual([20, 1, 1]);
    const { provenance: _film, ...film } = EXAMPLES.Film as Record<string, unknown>;
    expect(page.films[0]).toEqual(film);
    const { film: _f, cinema: _c, provenance: _p, ...showtime } = served as Record<string, unknown>;
    expect(page.data[0]).toEqual({ ...showtime, id: "s0" });
    expect(page.pagination).toEqual(apiPage(1).pagination);
  });

  test.each<[string, (page: any) => void]>([
    ["21 showtimes, one past the tools' limit", (page) => page.data.push({ ...page.data[0], id: "s20" })],
    ["a film with its provenance", (page) => (page.films[0].provenance = EXAMPLES.Provenance)],
    ["a showtime with its film in it", (page) => (page.data[0].film = page.films[0])],
    ["no cinemas", (page) => delete page.cinemas],
  ])("refused: %s", (_what, change) => {
    const page = listing(TOOL_MAX_LIMIT);
    change(page);
    expect(isValid(page)).toBe(false);
  });
});

describe("the argument schemas the tools declare", () => {
  const validator = new AjvJsonSchemaValidator();
  const argumentsOf = (tool: string) =>
    (toolDefinitions().find((d) => d.name === tool)!.inputSchema as { properties: Record<string, JsonSchema> })
      .properties;

  const fits = (schema: JsonSchema, value: unknown) => validator.getValidator(schema as never)(value).valid;

  test.each(toolDefinitions().map((d) => [d.name as string]))(
    "%s: every argument's example fits its schema",
    (tool) => {
      for (const [name, schema] of Object.entries(argumentsOf(tool)))
        for (const example of (schema.examples as unknown[] | undefined) ?? [])
          expect(fits(schema, example), `${name}: ${JSON.stringify(example)}`).toBe(true);
    },
  );

  test("a list the document sends comma-separated (attributeIds) is an argument of text, as its query value", () => {
    expect(argumentsOf("find_showtimes").attributeIds).toMatchObject({
      type: "string",
      minLength: 1,
      examples: ["format-imax,lang-en"],
    });
  });
});

/** Europe/Berlin as a snapshot stores it over 2026: +01:00, +02:00 from 29 March 01:00Z, +01:00 from 25 October. */
const BERLIN = piecesOf({
  initial: 3600,
  changes: [
    [Date.UTC(2026, 2, 29, 1) / 1000, 7200],
    [Date.UTC(2026, 9, 25, 1) / 1000, 3600],
  ],
});
const zoneOffset: ZoneOffset = (zone, t) => (zone === "Europe/Berlin" ? offsetAt(BERLIN, t) : undefined);

describe("local times: the snapshot's offsets for the cinema's zone, else the time as written", () => {
  test.each([
    ["2026-11-27T18:30:00Z", "Europe/Berlin", "Fri 27 Nov 2026, 19:30 Europe/Berlin"],
    ["2026-11-27T19:30+01:00", "Europe/Berlin", "Fri 27 Nov 2026, 19:30 Europe/Berlin"],
    ["2026-11-27T23:30Z", "Europe/Berlin", "Sat 28 Nov 2026, 00:30 Europe/Berlin"],
    ["2026-07-03T18:30Z", "Europe/Berlin", "Fri 3 Jul 2026, 20:30 Europe/Berlin"],
    ["2026-03-29T00:59:59Z", "Europe/Berlin", "Sun 29 Mar 2026, 01:59 Europe/Berlin"],
    ["2026-03-29T01:00Z", "Europe/Berlin", "Sun 29 Mar 2026, 03:00 Europe/Berlin"],
    // A feed that never switches to summer time (decision: time zones): the zone's clock is shown.
    ["2026-07-03T18:30:59.999999+01:00", "Europe/Berlin", "Fri 3 Jul 2026, 19:30 Europe/Berlin"],
    ["2026-10-25T00:59Z", "Europe/Berlin", "Sun 25 Oct 2026, 02:59 Europe/Berlin"],
    ["2026-10-25T01:00Z", "Europe/Berlin", "Sun 25 Oct 2026, 02:00 Europe/Berlin"],
    ["2026-11-27T19:30:00+01:00", undefined, "Fri 27 Nov 2026, 19:30 UTC+01:00"],
    ["2026-11-27T19:30Z", undefined, "Fri 27 Nov 2026, 19:30 UTC"],
    ["2026-11-27T19:30-05:00", "America/New_York", "Fri 27 Nov 2026, 19:30 UTC-05:00"],
  ])("%s at a cinema in %s: %s", (startsAt, zone, expected) => {
    expect(localTimeOf(startsAt, zone, zoneOffset)).toBe(expected);
  });
});

const provenance = { observedAt: "2026-11-22T06:00Z", provider: "test-feed", externalId: "x1" };
const cinema = {
  id: "c1",
  provenance,
  name: "Kino\nEins",
  location: {
    countryCode: "DE",
    locality: "Berlin",
    postcode: "10785",
    address: "Voxstraße 2",
    timeZone: "Europe/Berlin",
  },
};
const film = {
  id: "f1",
  title: "The\u0007Film",
  durationMinutes: 90,
  certification: "FSK 12",
  releaseDate: "2026-11-20",
  provenance,
};

/** London as a snapshot stores it over 2026: +00:00, +01:00 from 29 March 01:00Z, +00:00 from 25 October. */
const LONDON = piecesOf({
  initial: 0,
  changes: [
    [Date.UTC(2026, 2, 29, 1) / 1000, 3600],
    [Date.UTC(2026, 9, 25, 1) / 1000, 0],
  ],
});
const PIECES: Record<string, typeof BERLIN> = {
  "Europe/Berlin": BERLIN,
  "Europe/London": LONDON,
  "Europe/Paris": BERLIN,
};

/** The zone offsets of a snapshot whose cinemas are in `names` (and some in none, when `unzoned`). */
function snapshotZones(names: string[], unzoned = false): ZoneOffset {
  const offset = (zone: string, t: number) => (names.includes(zone) ? offsetAt(PIECES[zone]!, t) : undefined);
  return Object.assign(offset, { zones: () => ({ names, hasCinemaWithoutZone: unzoned }) });
}

describe("a film's first matching showtime, whose cinema is not named: in the zone it must be in", () => {
  const BOTH = ["Europe/London", "Europe/Berlin"];
  test.each<[string, string[], boolean, string]>([
    ["2026-11-27T18:30Z", ["Europe/Berlin"], false, "Fri 27 Nov 2026, 19:30 Europe/Berlin"],
    // One zone, but a cinema without one: that cinema's time may be written in any offset.
    ["2026-11-27T18:30Z", ["Europe/Berlin"], true, "Fri 27 Nov 2026, 18:30 UTC"],
    ["2026-11-27T19:30+01:00", ["Europe/Berlin"], true, "Fri 27 Nov 2026, 19:30 Europe/Berlin"],
    ["2026-11-27T19:30+01:00", BOTH, false, "Fri 27 Nov 2026, 19:30 Europe/Berlin"],
    ["2026-11-27T19:30Z", BOTH, false, "Fri 27 Nov 2026, 19:30 Europe/London"],
    ["2026-07-03T19:30+01:00", BOTH, false, "Fri 3 Jul 2026, 19:30 Europe/London"],
    ["2026-07-03T19:30+02:00", BOTH, false, "Fri 3 Jul 2026, 19:30 Europe/Berlin"],
    // No zone of the snapshot at that offset then (London is at +01:00 in July): as written.
    ["2026-07-03T18:30Z", BOTH, false, "Fri 3 Jul 2026, 18:30 UTC"],
    // Two zones at that offset: which one is not known, so as written.
    ["2026-11-27T19:30+01:00", ["Europe/Berlin", "Europe/Paris"], false, "Fri 27 Nov 2026, 19:30 UTC+01:00"],
  ])("%s, zones %j (a cinema without one: %s): %s", (firstStartsAt, names, unzoned, expected) => {
    const matching = { count: 1, cinemaCount: 1, firstStartsAt };
    expect(renderFilm({ ...film, matchingShowtimes: matching }, snapshotZones(names, unzoned)).split("\n")[1]).toBe(
      `  1 matching showtime at 1 cinema, the first ${expected}`,
    );
  });
});

describe("the text: a few lines per record, each value on one line", () => {
  test("a showtime: title and local time, place, distance, screen and attributes, booking URL, ids", () => {
    const showtime = {
      id: "s1",
      filmId: "f1",
      cinemaId: "c1",
      startsAt: "2026-11-27T18:30Z",
      bookingUrl: "https://tickets.example/s1",
      attributeIds: ["format-imax"],
      screenName: "Saal\t1",
      distanceKm: 1.5,
      provenance,
      film,
      cinema,
    };
    expect(renderShowtime(showtime, zoneOffset).split("\n")).toEqual([
      "- The Film · Fri 27 Nov 2026, 19:30 Europe/Berlin",
      "  Kino Eins, Berlin · 1.5 km away · Saal 1 · format-imax",
      "  Book: https://tickets.example/s1",
      "  showtime s1 · film f1 · cinema c1",
    ]);
  });

  test("a film with its matching showtimes; a cinema without a zone or distance", () => {
    const matching = { count: 2, cinemaCount: 1, firstStartsAt: "2026-11-27T19:30+01:00" };
    expect(renderFilm({ ...film, matchingShowtimes: matching }, zoneOffset).split("\n")).toEqual([
      "- The Film (FSK 12, 90 min, released 2026-11-20) · film f1",
      "  2 matching showtimes at 1 cinema, the first Fri 27 Nov 2026, 19:30 UTC+01:00",
    ]);
    const { timeZone: _zone, ...location } = cinema.location;
    expect(renderCinema({ ...cinema, location }, zoneOffset)).toBe(
      "- Kino Eins · cinema c1\n  Voxstraße 2, 10785 Berlin, DE",
    );
  });

  test("an empty page, and a page with more to come", () => {
    const empty = { data: [], pagination: { nextCursor: null, hasMore: false } };
    expect(renderPage(empty, renderFilm, "film", "find_films", zoneOffset)).toBe("No films match.");
    const more = { data: [film], pagination: { nextCursor: "abc", hasMore: true } };
    expect(renderPage(more, renderFilm, "film", "find_films", zoneOffset).split("\n")).toEqual([
      "1 film:",
      "- The Film (FSK 12, 90 min, released 2026-11-20) · film f1",
      'More: call find_films again with the same arguments and cursor "abc".',
    ]);
  });
});

describe("the bound on an answer", () => {
  test(`the text is cut at ${MAX_TEXT_LENGTH} characters; with its structured content under 4.5 MB`, () => {
    const huge = { ...film, title: "x".repeat(30_000) };
    const body = { data: Array.from({ length: TOOL_MAX_LIMIT }, () => huge), pagination: { nextCursor: null } };
    const context: ToolContext = {
      ask: () => ({ status: 200, headers: {}, body: Buffer.from(JSON.stringify(body)) }),
      zoneOffset,
      requestId: "r",
      onError: () => {},
      keepStructured: () => {},
    };
    const result = callTool(TOOLS_BY_NAME.get("find_films")!, {}, context);
    const text = result.content[0]!.text;
    expect(text.length).toBe(MAX_TEXT_LENGTH);
    expect(text.endsWith("…")).toBe(true);
    // The largest structured content: the tools' limit of showtimes, each with its film and cinema.
    const largest = TOOL_MAX_LIMIT * 3 * MAX_RECORD_BYTES + 4096;
    expect(largest + 4 * MAX_TEXT_LENGTH).toBeLessThan(4.5 * 2 ** 20);
  });
});

describe("the transport's answer", () => {
  test("a tool's structured content goes out as the API's bytes, the answer the JSON the SDK would send", async () => {
    const api = Buffer.from('{"data":[{"id":"f1","title":"Amélie"}],"pagination":{"nextCursor":null,"hasMore":false}}');
    const result = { content: [{ type: "text", text: 'say "hi"' }], structuredContent: JSON.parse(api.toString()) };
    let released = 0;
    const transport = new PostTransport();
    transport.structured = { status: 200, headers: {}, body: api, release: () => released++ };
    transport.onmessage = (message) =>
      void transport.send({ jsonrpc: "2.0", id: (message as { id: number }).id, result });
    const answer = await transport.deliver({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "x" } });
    expect(answer.status).toBe(200);
    expect(answer.body.includes(api)).toBe(true);
    expect(JSON.parse(answer.body.toString())).toEqual({ jsonrpc: "2.0", id: 7, result });
    expect(released).toBe(1);
  });

  test("a notification is accepted (202) with no body; an answer to another id is not this request's", async () => {
    const transport = new PostTransport();
    const seen: unknown[] = [];
    transport.onmessage = (message) => void seen.push(message);
    const accepted = await transport.deliver({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect([accepted.status, accepted.body.length, seen.length]).toEqual([202, 0, 1]);
    transport.onmessage = () => {
      void transport.send({ jsonrpc: "2.0", id: 2, result: {} });
      void transport.send({ jsonrpc: "2.0", id: 1, result: { ok: true } });
    };
    const answer = await transport.deliver({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect(JSON.parse(answer.body.toString())).toEqual({ jsonrpc: "2.0", id: 1, result: { ok: true } });
  });
});
