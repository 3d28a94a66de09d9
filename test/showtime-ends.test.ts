/**
 * A showtime's end (decision: showtime ends): `endsAt` is `startsAt` plus its film's running time,
 * written as `startsAt` is, in its cinema's zone's offset at the end when the start is in that
 * zone's offset (a showing across a change of summer time), absent when the film has no running
 * time. Table-driven at the bounds (the instant a zone changes, the year 9999), against an oracle
 * that asks the runtime's own time-zone data (helpers/dataset.ts oracleEnd), and end to end: every
 * place a showtime is served (lists, its get-one, a cinema's and a film's lists, embeds, the
 * changes feed, the MCP tools' text and structured content) carries the same end, and a film's
 * running time changed upserts its showtimes in the feed.
 */
import type { Server } from "node:http";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { offsetAt, piecesOf, type ZonePieces } from "../api/_core/format/layout/zone-days.js";
import { localSpanOf, type ZoneOffset } from "../api/_core/mcp/local-time.js";
import type { PagedFile } from "../api/_core/format/primitives/paged-file.js";
import { endOf, openShowtimeEnds } from "../api/_core/format/read/showtime-ends.js";
import type { Dictionary } from "../api/_core/format/primitives/dictionary.js";
import { fileAccess } from "../api/_core/gate/access.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createHandler } from "../api/_core/handle-request.js";
import { zoneOffsets } from "../build/localize/zone-offsets.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { type Dataset, expectedList, oracleEnd, type Showtime, writeDataset } from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";
import { connectMcp } from "./helpers/mcp-session.js";

/** Offsets of a zone over 2026 and the first days of 2027, as the build stores them. */
function zone(name: string): ZonePieces {
  return piecesOf(zoneOffsets(name, Date.UTC(2026, 0, 1) / 1000, Date.UTC(2027, 0, 10) / 1000));
}
const BERLIN = zone("Europe/Berlin");
const LONDON = zone("Europe/London");
const SYDNEY = zone("Australia/Sydney");
const LORD_HOWE = zone("Australia/Lord_Howe");
const PIECES: Record<string, ZonePieces> = {
  "Europe/Berlin": BERLIN,
  "Europe/London": LONDON,
  "Australia/Sydney": SYDNEY,
  "Australia/Lord_Howe": LORD_HOWE,
};

describe("the end of a start, minutes later", () => {
  // [why, startsAt, minutes, zone, endsAt or undefined]
  const CASES: Array<[string, string, number, ZonePieces | undefined, string | undefined]> = [
    ["the same day, the start's offset", "2026-03-06T20:00+01:00", 120, BERLIN, "2026-03-06T22:00+01:00"],
    ["past midnight: the next day", "2026-03-06T23:30+01:00", 90, BERLIN, "2026-03-07T01:00+01:00"],
    ["seconds kept", "2026-03-06T14:30:00+01:00", 116, BERLIN, "2026-03-06T16:26:00+01:00"],
    ["a fraction kept, every digit", "2026-03-07T18:45:30.500+01:00", 116, BERLIN, "2026-03-07T20:41:30.500+01:00"],
    ["Z stays Z, whatever the zone does", "2026-03-29T00:30Z", 60, BERLIN, "2026-03-29T01:30Z"],
    // Berlin springs forward at 2026-03-29T01:00Z (+01:00 -> +02:00).
    ["spring forward: one minute before the change", "2026-03-29T01:00+01:00", 59, BERLIN, "2026-03-29T01:59+01:00"],
    ["spring forward: at the change, the new offset", "2026-03-29T01:00+01:00", 60, BERLIN, "2026-03-29T03:00+02:00"],
    ["spring forward: across it", "2026-03-29T01:30+01:00", 60, BERLIN, "2026-03-29T03:30+02:00"],
    ["spring forward, seconds past", "2026-03-29T01:59:30+01:00", 1, BERLIN, "2026-03-29T03:00:30+02:00"],
    // Berlin falls back at 2026-10-25T01:00Z (+02:00 -> +01:00): the wall clock repeats an hour.
    ["fall back: one minute before the change", "2026-10-25T02:00+02:00", 59, BERLIN, "2026-10-25T02:59+02:00"],
    ["fall back: at the change, the new offset", "2026-10-25T02:00+02:00", 60, BERLIN, "2026-10-25T02:00+01:00"],
    ["fall back: a start in the repeated hour", "2026-10-25T02:30+01:00", 60, BERLIN, "2026-10-25T03:30+01:00"],
    ["London: +00:00 to +01:00", "2026-03-29T00:30+00:00", 60, LONDON, "2026-03-29T02:30+01:00"],
    ["London: -00:00 as written, no change", "2026-11-24T20:00-00:00", 90, LONDON, "2026-11-24T21:30-00:00"],
    ["London: +01:00 to +00:00", "2026-10-25T01:30+01:00", 60, LONDON, "2026-10-25T01:30+00:00"],
    ["Sydney falls back (+11:00 -> +10:00)", "2026-04-05T02:30+11:00", 60, SYDNEY, "2026-04-05T02:30+10:00"],
    ["Lord Howe moves by half an hour", "2026-04-05T01:45+11:00", 30, LORD_HOWE, "2026-04-05T01:45+10:30"],
    // A feed that never switches: the start's offset is not the zone's, so the end keeps the start's.
    ["an offset the zone does not have then: kept", "2026-07-01T20:00+01:00", 120, BERLIN, "2026-07-01T22:00+01:00"],
    ["no zone: the start's offset across a change", "2026-03-29T01:30+01:00", 60, undefined, "2026-03-29T02:30+01:00"],
    ["half-hour offsets", "2026-11-24T20:00:00-09:30", 100, undefined, "2026-11-24T21:40:00-09:30"],
    ["a 45-minute offset, into the next day", "2026-11-24T23:50+05:45", 20, undefined, "2026-11-25T00:10+05:45"],
    ["into a leap day", "2028-02-28T23:00Z", 120, undefined, "2028-02-29T01:00Z"],
    ["over a common year's February", "2026-02-28T23:00Z", 120, undefined, "2026-03-01T01:00Z"],
    ["into the next year", "2026-12-31T23:30-05:00", 60, undefined, "2027-01-01T00:30-05:00"],
    ["a year below 1000, padded", "0099-12-31T23:00Z", 120, undefined, "0100-01-01T01:00Z"],
    ["the longest running time", "2026-11-24T20:00Z", 1000, undefined, "2026-11-25T12:40Z"],
    ["the last minute the form can write", "9999-12-31T22:00Z", 119, undefined, "9999-12-31T23:59Z"],
    ["past the year 9999: no end", "9999-12-31T22:00Z", 120, undefined, undefined],
  ];

  test.each(CASES)("%s: %s + %d min", (_why, startsAt, minutes, pieces, endsAt) => {
    expect(endOf(startsAt, minutes, pieces)).toBe(endsAt);
  });

  test("the table agrees with the oracle, which asks the runtime's own zone data", () => {
    const names = new Map(Object.entries(PIECES).map(([name, pieces]) => [pieces, name]));
    for (const [why, startsAt, minutes, pieces, endsAt] of CASES)
      expect(oracleEnd(startsAt, minutes, pieces && names.get(pieces)), why).toBe(endsAt);
  });

  test("random starts in every form, near the changes of four zones, agree with the oracle", () => {
    const changes = Object.values(PIECES).flatMap((p) => p.from.slice(1));
    const form = fc.record({
      seconds: fc.constantFrom("", ":00", ":59", ":30.5", ":07.000123456"),
      zone: fc.constantFrom("Z", "+00:00", "-00:00", "+01:00", "+02:00", "+10:00", "+10:30", "+11:00", "-05:00"),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...changes),
        fc.integer({ min: -1500, max: 1500 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.constantFrom(undefined, ...Object.keys(PIECES)),
        form,
        (change, minutesFromChange, minutes, zoneName, { seconds, zone: written }) => {
          const sign = written.startsWith("-") ? -1 : 1;
          const offset = written === "Z" ? 0 : sign * (Number(written.slice(1, 3)) * 60 + Number(written.slice(4)));
          const wall = new Date((change + (minutesFromChange + offset) * 60) * 1000).toISOString().slice(0, 16);
          const startsAt = `${wall}${seconds}${written}`;
          const pieces = zoneName === undefined ? undefined : PIECES[zoneName];
          expect(endOf(startsAt, minutes, pieces), startsAt).toBe(oracleEnd(startsAt, minutes, zoneName));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("a snapshot built before running times were stored has no ends (stored pages and composed alike)", () => {
    const index = { hasSection: () => false } as unknown as PagedFile;
    expect(openShowtimeEnds(index, {} as Dictionary, 3, () => undefined as never)).toBeUndefined();
  });
});

describe("the MCP text's start and end, on one clock (localSpanOf)", () => {
  const berlin: ZoneOffset = (zone, t) => (zone === "Europe/Berlin" ? offsetAt(BERLIN, t) : undefined);
  // [why, startsAt, endsAt, the cinema's zone, text]
  test.each<[string, string, string | undefined, string | undefined, string]>([
    [
      "the same day",
      "2026-03-06T20:00+01:00",
      "2026-03-06T22:00+01:00",
      "Europe/Berlin",
      "Fri 6 Mar 2026, 20:00–22:00 Europe/Berlin",
    ],
    [
      "the next day says its day",
      "2026-03-06T23:30+01:00",
      "2026-03-07T01:00+01:00",
      "Europe/Berlin",
      "Fri 6 Mar 2026, 23:30–Sat 7 Mar, 01:00 Europe/Berlin",
    ],
    [
      "across the change, one zone",
      "2026-03-29T01:30+01:00",
      "2026-03-29T03:30+02:00",
      "Europe/Berlin",
      "Sun 29 Mar 2026, 01:30–03:30 Europe/Berlin",
    ],
    [
      "Z on the cinema's clock",
      "2026-03-29T00:30Z",
      "2026-03-29T01:30Z",
      "Europe/Berlin",
      "Sun 29 Mar 2026, 01:30–03:30 Europe/Berlin",
    ],
    [
      "no zone: as written",
      "2026-03-29T01:30+01:00",
      "2026-03-29T02:30+01:00",
      undefined,
      "Sun 29 Mar 2026, 01:30–02:30 UTC+01:00",
    ],
    [
      "a zone the snapshot lacks, offsets that differ: each its own",
      "2026-03-29T01:30+01:00",
      "2026-03-29T03:30+02:00",
      "Europe/Paris",
      "Sun 29 Mar 2026, 01:30 UTC+01:00–03:30 UTC+02:00",
    ],
    [
      "no end: the start alone",
      "2026-03-29T15:00+02:00",
      undefined,
      "Europe/Berlin",
      "Sun 29 Mar 2026, 15:00 Europe/Berlin",
    ],
  ])("%s", (_why, startsAt, endsAt, zone, text) => {
    expect(localSpanOf(startsAt, endsAt, zone, berlin)).toBe(text);
  });
});

// ---- End to end ----

const PROVENANCE = { observedAt: "2026-03-20T06:00:00Z", provider: "p", externalId: "x" };

/** Showtimes across Berlin's spring change, a Z feed, a cinema without a zone, a film without a running time. */
function dataset(arrivalMinutes = 116): Dataset {
  const cinema = (id: string, location: Record<string, unknown>) => ({
    id,
    name: id,
    location: { countryCode: "DE", locality: "Town", postcode: "P1X", ...location },
    provenance: PROVENANCE,
  });
  const film = (id: string, durationMinutes?: number) => ({
    id,
    title: id,
    ...(durationMinutes === undefined ? {} : { durationMinutes }),
    provenance: PROVENANCE,
  });
  const showtime = (id: string, filmId: string, cinemaId: string, startsAt: string): Showtime => ({
    id,
    filmId,
    cinemaId,
    startsAt,
    attributeIds: [],
    provenance: PROVENANCE,
  });
  return {
    cinemas: [cinema("berlin", { timeZone: "Europe/Berlin" }), cinema("nowhere", {})],
    films: [film("arrival", arrivalMinutes), film("short", 60), film("untimed")],
    attributes: [],
    showtimes: [
      showtime("st-1-late", "arrival", "berlin", "2026-03-28T23:30+01:00"),
      showtime("st-2-across", "short", "berlin", "2026-03-29T01:30+01:00"),
      showtime("st-3-z", "short", "berlin", "2026-03-29T00:30:00Z"),
      showtime("st-4-untimed", "untimed", "berlin", "2026-03-29T15:00+02:00"),
      showtime("st-5-nowhere", "short", "nowhere", "2026-03-29T01:30:15.25+01:00"),
      showtime("st-6-summer", "arrival", "berlin", "2026-03-29T20:00+02:00"),
    ],
  };
}

/** What each showtime must end at: the table above, by hand. */
const ENDS: Record<string, string | undefined> = {
  "st-1-late": "2026-03-29T01:26+01:00",
  "st-2-across": "2026-03-29T03:30+02:00",
  "st-3-z": "2026-03-29T01:30:00Z",
  "st-4-untimed": undefined,
  "st-5-nowhere": "2026-03-29T02:30:15.25+01:00",
  "st-6-summer": "2026-03-29T21:56+02:00",
};

async function build(data: Dataset, out: string, previous?: string): Promise<void> {
  const dataDir = makeTempDir("ends-data");
  writeDataset(dataDir, data);
  const result = await runBuild({ dataDir, output: createDiskWriter(out), previous, gzipLevel: 1, gzipWorkers: 0 });
  removeDir(dataDir);
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
}

let root: string;
let snapshot: string;
let server: Server;
let base: string;

beforeAll(async () => {
  root = makeTempDir("ends");
  snapshot = path.join(root, "snapshot");
  await build(dataset(), snapshot);
  const started = await startServer({
    snapshotDir: snapshot,
    accessFile: writeAccessFile(root),
    port: 0,
    now: () => TEST_NOW,
    onLog: () => {},
    onError: () => {},
  });
  server = started.server;
  base = started.url;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  removeDir(root);
});

async function get(target: string): Promise<any> {
  const response = await fetch(new URL(target, base), { headers: { authorization: `Bearer ${KEYS.bulk}` } });
  expect(response.status, target).toBe(200);
  return response.json();
}

const endsOf = (records: Array<{ id: string; endsAt?: string }>) =>
  Object.fromEntries(records.map((r) => [r.id, r.endsAt]));
const only = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, ENDS[id]]));

describe("every place a showtime is served", () => {
  test("the list (a stored page): after startsAt, absent without a running time, as the oracle says", async () => {
    const page = await get("/v1/showtimes");
    expect(endsOf(page.data)).toEqual(ENDS);
    expect(page.data).toEqual(expectedList(dataset(), "showtimes"));
    expect(Object.keys(page.data[0]).slice(3, 5)).toEqual(["startsAt", "endsAt"]);
    expect(page.data.find((s: { id: string }) => s.id === "st-4-untimed")).not.toHaveProperty("endsAt");
  });

  test("filtered lists (composed), a cinema's and a film's, with embeds, and each get-one", async () => {
    expect(endsOf((await get("/v1/showtimes?limit=2")).data)).toEqual(only(["st-1-late", "st-2-across"]));
    expect(endsOf((await get("/v1/showtimes?cinemaId=nowhere")).data)).toEqual(only(["st-5-nowhere"]));
    const short = ["st-2-across", "st-3-z", "st-5-nowhere"];
    expect(endsOf((await get("/v1/showtimes?filmId=short")).data)).toEqual(only(short));
    expect(endsOf((await get("/v1/showtimes?include=film,cinema&date=2026-03-29")).data)).toEqual(
      only(["st-2-across", "st-3-z", "st-4-untimed", "st-5-nowhere", "st-6-summer"]),
    );
    for (const [id, endsAt] of Object.entries(ENDS))
      expect((await get(`/v1/showtimes/${id}`)).data.endsAt).toBe(endsAt);
  });

  test("the changes feed: a showtime's upsert is its get-one's record", async () => {
    const feed = await get("/v1/changes");
    const showtimes = feed.data.filter((c: { type: string }) => c.type === "showtime");
    expect(endsOf(showtimes.map((c: { record: { id: string } }) => c.record))).toEqual(ENDS);
  });

  test("the MCP tools: the text shows start–end on the cinema's clock, the structure carries endsAt", async () => {
    const { client } = await connectMcp(base, KEYS.bulk);
    try {
      const found = (await client.callTool({ name: "find_showtimes", arguments: { cinemaId: "berlin" } })) as any;
      const text = found.content[0].text as string;
      expect(text).toContain("Sat 28 Mar 2026, 23:30–Sun 29 Mar, 01:26 Europe/Berlin");
      // The start written in +01:00 and the one written in Z: the same instants, one clock.
      expect(text.split("Sun 29 Mar 2026, 01:30–03:30 Europe/Berlin")).toHaveLength(3);
      expect(text).toContain("Sun 29 Mar 2026, 15:00 Europe/Berlin\n");
      expect(endsOf(found.structuredContent.data)).toEqual(
        only(["st-1-late", "st-2-across", "st-3-z", "st-4-untimed", "st-6-summer"]),
      );
      const one = (await client.callTool({ name: "get_showtime", arguments: { showtimeId: "st-5-nowhere" } })) as any;
      expect(one.content[0].text).toContain("Sun 29 Mar 2026, 01:30–02:30 UTC+01:00");
      expect(one.structuredContent.data.endsAt).toBe(ENDS["st-5-nowhere"]);
    } finally {
      await client.close();
    }
  });
});

describe("a film's running time changed (decision: showtime ends)", () => {
  test("its showtimes are upserts of the next generation, with their new end; others are not", async () => {
    const out = path.join(root, "history");
    await build(dataset(), out);
    const access = fileAccess(writeAccessFile(root));
    // A handler per snapshot served: the feed as a client sees it before and after the rebuild.
    const fetchFeed = async (query: string) => {
      const handle = createHandler({ snapshots: new SnapshotSource(out), access, now: () => TEST_NOW });
      const request = { method: "GET", url: `/v1/changes?${query}`, headers: { authorization: `Bearer ${KEYS.bulk}` } };
      return JSON.parse(Buffer.from((await handle(request)).body).toString());
    };
    const { syncToken } = await fetchFeed("");
    await build(dataset(120), out, out);
    const changes = (await fetchFeed(`since=${encodeURIComponent(syncToken)}`)).data;
    expect(changes.map((c: { type: string; id: string }) => `${c.type} ${c.id}`)).toEqual([
      "film arrival",
      "showtime st-1-late",
      "showtime st-6-summer",
    ]);
    expect(changes.slice(1).map((c: { record: { endsAt: string } }) => c.record.endsAt)).toEqual([
      "2026-03-29T01:30+01:00",
      "2026-03-29T22:00+02:00",
    ]);
  });
});
