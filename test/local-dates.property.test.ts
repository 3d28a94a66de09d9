/**
 * `date` and `dayStartsAt` against a brute-force oracle (decision: local dates): random cinemas in
 * zones with a DST change inside the snapshot's days (Europe/Berlin, America/Santiago at midnight,
 * Australia/Lord_Howe by half an hour, Pacific/Chatham at +12:45), whole-year odd offsets
 * (Asia/Kolkata +5:30, Asia/Kathmandu +5:45), cinemas whose zone comes from their coordinates, and
 * cinemas without a zone (their showtimes' days read from the written offset); showtimes written
 * in Z and in local offsets. Every page walked to the end equals the oracle's filter-then-sort, and
 * a cursor taken before a rebuild resumes after its record. The oracle (helpers/local-day-oracle.ts)
 * finds a zone's day start by asking Intl minute by minute, sharing no code with the build or the core.
 */
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { fileAccess } from "../api/_core/gate/access.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createHandler, type Handler } from "../api/_core/handle-request.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { buildDataset, compareInstants, type Dataset, formatInstant, type Showtime } from "./helpers/dataset.js";
import { KEYS, TEST_NOW, writeAccessFile } from "./helpers/http-setup.js";
import { offsetMinutes, onDay } from "./helpers/local-day-oracle.js";
import { scaled } from "./helpers/deadlines.js";

/** Zones given in source records, and places whose zone the build derives. */
const ZONES = [
  "Europe/Berlin",
  "America/Santiago",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "America/St_Johns",
];
const PLACES = [
  { latitude: 51.5072, longitude: -0.1276, zone: "Europe/London", countryCode: "GB" },
  { latitude: -33.4489, longitude: -70.6693, zone: "America/Santiago", countryCode: "CL" },
];
/** 2026-03-26 .. 2026-04-08: Europe springs forward on 03-29; Chile, Lord Howe and Chatham change on 04-05. */
const FIRST_DAY = Date.UTC(2026, 2, 26) / 1000;
const DAYS = 14;

type Kind = { zone: string } | { place: number } | "none";

interface Spec {
  cinemas: Kind[];
  films: number;
  showtimes: Array<{ cinema: number; film: number; minute: number; written: "Z" | "local" | number }>;
}

const specArb: fc.Arbitrary<Spec> = fc
  .record({
    cinemas: fc.array(
      fc.oneof(
        fc.constantFrom(...ZONES).map((zone): Kind => ({ zone })),
        fc.nat({ max: PLACES.length - 1 }).map((place): Kind => ({ place })),
        fc.constant<Kind>("none"),
      ),
      { minLength: 1, maxLength: 6 },
    ),
    films: fc.integer({ min: 1, max: 3 }),
  })
  .chain(({ cinemas, films }) =>
    fc.record({
      cinemas: fc.constant(cinemas),
      films: fc.constant(films),
      showtimes: fc.array(
        fc.record({
          cinema: fc.nat({ max: cinemas.length - 1 }),
          film: fc.nat({ max: films - 1 }),
          // Minutes into the span, biased to whole quarters and to the small hours around a change.
          minute: fc.oneof(
            fc.integer({ min: 0, max: DAYS * 1440 - 1 }).map((m) => m - (m % 15)),
            fc
              .integer({ min: 0, max: DAYS - 1 })
              .chain((d) => fc.integer({ min: -240, max: 360 }).map((m) => Math.max(0, d * 1440 + m))),
          ),
          written: fc.oneof(fc.constant<"Z">("Z"), fc.constant<"local">("local"), fc.constantFrom(-300, 60, 330, 765)),
        }),
        { minLength: 200, maxLength: 600, size: "max" },
      ),
    }),
  );

// ---- Datasets from specs. ----

const PROVENANCE = { observedAt: "2026-03-20T06:00:00Z", provider: "p", externalId: "x" };

function zoneOfKind(kind: Kind): string | undefined {
  if (kind === "none") return undefined;
  return "zone" in kind ? kind.zone : PLACES[kind.place]!.zone;
}

function datasetOf(spec: Spec): Dataset {
  const cinemas = spec.cinemas.map((kind, i) => {
    const location: Record<string, unknown> = { countryCode: "US", locality: "Town", postcode: `P${i}X` };
    if (kind !== "none" && "zone" in kind) location.timeZone = kind.zone;
    if (kind !== "none" && "place" in kind) {
      const { latitude, longitude, countryCode } = PLACES[kind.place]!;
      Object.assign(location, { latitude, longitude, countryCode });
    }
    return { id: `cinema-${i}`, name: `Cinema ${i}`, location, provenance: PROVENANCE };
  });
  const showtimes = spec.showtimes.map((s, i): Showtime => {
    const t = FIRST_DAY + s.minute * 60;
    const zone = zoneOfKind(spec.cinemas[s.cinema]!);
    const offset = s.written === "Z" ? 0 : s.written === "local" ? (zone ? offsetMinutes(zone, t) : 120) : s.written;
    return {
      id: `st-${String(i).padStart(3, "0")}`,
      filmId: `film-${s.film}`,
      cinemaId: `cinema-${s.cinema}`,
      startsAt: formatInstant(t, "", offset),
      attributeIds: [],
      provenance: PROVENANCE,
    };
  });
  const films = Array.from({ length: spec.films }, (_, i) => ({
    id: `film-${i}`,
    title: `Film ${i}`,
    provenance: PROVENANCE,
  }));
  return { cinemas, films, attributes: [], showtimes };
}

interface Query {
  date: string;
  dayStartsAt?: string;
  cinema?: number;
  film?: number;
  startsAfter?: string;
  near?: number;
  limits: number[];
}

/** Present a quarter of the time: most queries are the day alone or with one more filter. */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

const queryArb: fc.Arbitrary<Query> = fc
  .record({
    day: fc.integer({ min: -1, max: DAYS }),
    dayStartsAt: sometimes(fc.constantFrom("00:00", "01:30", "03:00", "05:59")),
    cinema: sometimes(fc.nat({ max: 5 })),
    film: sometimes(fc.nat({ max: 2 })),
    // Within the day asked, or near it: a bound that cuts the day.
    startsAfterHour: sometimes(fc.integer({ min: -6, max: 30 })),
    near: sometimes(fc.nat({ max: PLACES.length - 1 })),
    limits: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 3 }),
  })
  .map(({ day, startsAfterHour, ...rest }) => {
    const start = FIRST_DAY + day * 86_400;
    const query: Query = { ...rest, date: new Date(start * 1000).toISOString().slice(0, 10) };
    if (startsAfterHour !== undefined) query.startsAfter = formatInstant(start + startsAfterHour * 3600, "", 0);
    for (const key of Object.keys(query) as Array<keyof Query>) if (query[key] === undefined) delete query[key];
    return query;
  });

function expected(dataset: Dataset, spec: Spec, q: Query): string[] {
  const startMinutes = q.dayStartsAt ? Number(q.dayStartsAt.slice(0, 2)) * 60 + Number(q.dayStartsAt.slice(3)) : 0;
  return dataset.showtimes
    .filter((s) => {
      const c = Number(s.cinemaId.slice("cinema-".length));
      const kind = spec.cinemas[c]!;
      const t = FIRST_DAY + spec.showtimes[Number(s.id.slice(3))]!.minute * 60;
      return (
        onDay(zoneOfKind(kind), t, s.startsAt, q.date, startMinutes) &&
        (q.cinema === undefined || s.cinemaId === `cinema-${q.cinema}`) &&
        (q.film === undefined || s.filmId === `film-${q.film}`) &&
        (q.startsAfter === undefined || compareInstants(s.startsAt, q.startsAfter) > 0) &&
        // Near a place: only cinemas with its coordinates are within its 1 km.
        (q.near === undefined || (kind !== "none" && "place" in kind && kind.place === q.near))
      );
    })
    .sort((a, b) => compareInstants(a.startsAt, b.startsAt) || (a.id < b.id ? -1 : 1))
    .map((s) => s.id);
}

function urlOf(q: Query, limit: number, cursor: string | null): string {
  const params = new URLSearchParams({ date: q.date, limit: String(limit) });
  if (q.dayStartsAt) params.set("dayStartsAt", q.dayStartsAt);
  if (q.cinema !== undefined) params.set("cinemaId", `cinema-${q.cinema}`);
  if (q.film !== undefined) params.set("filmId", `film-${q.film}`);
  if (q.startsAfter) params.set("startsAfter", q.startsAfter);
  if (q.near !== undefined) {
    const place = PLACES[q.near]!;
    params.set("near", `${place.latitude},${place.longitude}`);
    params.set("radiusKm", "1");
  }
  if (cursor) params.set("cursor", cursor);
  return `/v1/showtimes?${params}`;
}

let root: string;
let accessFile: string;
beforeAll(() => {
  root = makeTempDir("local-dates");
  accessFile = writeAccessFile(root);
});
afterAll(() => removeDir(root));

async function open(dataset: Dataset, dir: string): Promise<Handler> {
  await buildDataset(dataset, dir, path.join(dir, "snapshot"), "data", {
    targetBytes: 300,
    restartInterval: 3,
    deflate: true,
  });
  return createHandler({
    snapshots: new SnapshotSource(path.join(dir, "snapshot")),
    access: fileAccess(accessFile),
    now: () => TEST_NOW,
  });
}

async function page(handle: Handler, url: string) {
  const response = await handle({ method: "GET", url, headers: { authorization: `Bearer ${KEYS.bulk}` } });
  expect(response.status, `${url}: ${Buffer.from(response.body).toString()}`).toBe(200);
  return JSON.parse(Buffer.from(response.body).toString()) as {
    data: Array<{ id: string }>;
    pagination: { nextCursor: string | null };
  };
}

test("every local day, alone and with other filters, pages through exactly the oracle's showtimes", {
  timeout: scaled(300_000),
}, async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(specArb, fc.array(queryArb, { minLength: 4, maxLength: 10 }), async (spec, queries) => {
      const dir = path.join(root, `run-${run++}`);
      try {
        const dataset = datasetOf(spec);
        const handle = await open(dataset, dir);
        for (const q of queries) {
          const want = expected(dataset, spec, q);
          const got: string[] = [];
          let cursor: string | null = null;
          for (let i = 0; ; i++) {
            const body = await page(handle, urlOf(q, q.limits[i % q.limits.length]!, cursor));
            got.push(...body.data.map((s) => s.id));
            cursor = body.pagination.nextCursor;
            if (!cursor) break;
          }
          if (process.env.STATS) console.log("STAT", want.length, urlOf(q, 0, null));
          expect(got, urlOf(q, 0, null)).toEqual(want);
        }
      } finally {
        removeDir(dir);
      }
    }),
    { numRuns: 14, seed: Number(process.env.FC_SEED ?? 20_261_127) },
  );
});

test("a cursor of a local day taken before a rebuild resumes right after its record", {
  timeout: scaled(300_000),
}, async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(specArb, fc.array(queryArb, { minLength: 2, maxLength: 6 }), async (spec, queries) => {
      const dir = path.join(root, `rebuild-${run++}`);
      try {
        const before = datasetOf(spec);
        // The rebuild drops every third showtime.
        const afterSpec: Spec = { ...spec, showtimes: spec.showtimes };
        const after: Dataset = { ...before, showtimes: before.showtimes.filter((_, i) => i % 3 !== 0) };
        const first = await open(before, path.join(dir, "before"));
        const second = await open(after, path.join(dir, "after"));
        for (const q of queries) {
          const body = await page(first, urlOf(q, 1, null));
          if (!body.pagination.nextCursor) continue;
          const last = before.showtimes.find((s) => s.id === body.data[0]!.id)!;
          const rest = expected(after, afterSpec, q).filter((id) => {
            const s = after.showtimes.find((x) => x.id === id)!;
            const order = compareInstants(s.startsAt, last.startsAt);
            return order > 0 || (order === 0 && id > last.id);
          });
          const resumed = await page(second, urlOf(q, 100, body.pagination.nextCursor));
          expect(resumed.data.map((s) => s.id)).toEqual(rest.slice(0, 100));
        }
      } finally {
        removeDir(dir);
      }
    }),
    { numRuns: 5, seed: Number(process.env.FC_SEED ?? 20_261_128) },
  );
});
