/**
 * Deterministic test datasets for the HTTP-side tests: a seeded generator of the data/ layout
 * (ids with '/', '%', spaces, dots, Unicode and case-only differences; start times in several
 * offsets, with fractional seconds and equal instants), the build that turns one into a
 * snapshot, and an oracle of what the API must answer, computed independently of the core.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { find as zonesAtPoint } from "geo-tz/all";
import { createDiskWriter } from "../../build/write/output-writer.js";
import { runBuild } from "../../build/run-build.js";
import { primaryZoneName } from "../../build/localize/zone-names.js";
import type { BlockLayout } from "../../build/encode/encode-showtimes.js";

export interface Provenance {
  observedAt: string;
  sourceUpdatedAt?: string;
  provider: string;
  externalId: string;
}
export interface Cinema {
  id: string;
  chainId?: string;
  name: string;
  location: Record<string, unknown>;
  provenance: Provenance;
}
export interface Film {
  id: string;
  title: string;
  durationMinutes?: number;
  releaseDate?: string;
  provenance: Provenance;
}
export interface Attribute {
  id: string;
  kind: string;
  name: string;
  description?: string;
}
export interface Showtime {
  id: string;
  filmId: string;
  cinemaId: string;
  startsAt: string;
  bookingUrl?: string;
  attributeIds: string[];
  screenName?: string;
  provenance: Provenance;
}
export interface Dataset {
  cinemas: Cinema[];
  films: Film[];
  attributes: Attribute[];
  showtimes: Showtime[];
}
export type Resource = keyof Dataset;
export type AnyRecord = Dataset[Resource][number];
export interface Freshness {
  observedAt: string;
  sourceUpdatedAt?: string;
}

/** Ids that break naive path mapping or ordering: '..' and '/', a literal '%25', case pairs, astral vs BMP order. */
export const TRICKY_CINEMA_IDS = [
  "gb/london/odeon",
  "100% cinema",
  "with space",
  "dots.in.id",
  "..",
  "Ciné Lumière ★",
  "🎬 Cinema",
  "ｚ fullwidth",
  "Case",
  "case",
  "a+b",
];
export const TRICKY_FILM_IDS = ["film/2049", "film%25", "Film", "film", "📽".repeat(160), "🎞 film", "x.y"];
const ATTRIBUTES: Attribute[] = [
  { id: "format-2d", kind: "format", name: "2D" },
  { id: "format-imax", kind: "format", name: "IMAX", description: "" },
  { id: "lang-en", kind: "language", name: "English" },
  { id: "Lang-EN", kind: "language", name: "English (original)", description: "Case-only twin of lang-en." },
  { id: "access/ad", kind: "accessibility", name: "Audio description" },
  { id: "event-q&a", kind: "event", name: "Q&A", description: "Director's Q&A after the screening." },
];
/** Minutes east of UTC; -00:00 and +00:00 are written too, for the same instant as Z. */
const OFFSETS = [0, 0, 60, 120, -300, 330, 345, -570, 840, -720];
/** Fractions by pool slot: slots 2k and 2k+1 share a second, so only digits past the millisecond order 2 and 3. */
const FRACTIONS = ["", "5", "123456789", "1234567891", "0001", "999999999999"];
export const SHOWS_FROM = Date.UTC(2026, 10, 23, 9) / 1000;
const OBSERVED_FROM = Date.UTC(2026, 10, 20, 6) / 1000;

export interface Random {
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: tiny, seedable, the same sequence on every platform. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { int, pick: (items) => items[int(items.length)]!, chance: (p) => next() < p };
}

/** Writes an instant (epoch seconds + fraction digits) at a zone offset in minutes, seconds always shown. */
export function formatInstant(seconds: number, fraction: string, offset: number, utcZone = "Z"): string {
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
  const minutes = String(Math.abs(offset) % 60).padStart(2, "0");
  const zone = offset === 0 ? utcZone : `${offset < 0 ? "-" : "+"}${hours}:${minutes}`;
  const local = new Date((seconds + offset * 60) * 1000).toISOString();
  return `${local.slice(0, 19)}${fraction ? `.${fraction}` : ""}${zone}`;
}

/** Writes an instant in a random offset and form: Z or ±00:00, seconds omitted, trailing zeros. */
function renderInstant(rng: Random, seconds: number, fraction: string): string {
  const offset = rng.pick(OFFSETS);
  const text = formatInstant(seconds, "", offset, rng.pick(["Z", "Z", "+00:00", "-00:00"]));
  if (fraction === "" && text.slice(17, 19) === "00" && rng.chance(0.4)) return text.slice(0, 16) + text.slice(19);
  const digits = fraction === "" ? (rng.chance(0.2) ? "000" : "") : fraction + "0".repeat(rng.int(3));
  return text.slice(0, 19) + (digits ? `.${digits}` : "") + text.slice(19);
}

function provenanceOf(rng: Random, i: number): Provenance {
  // A pool of five observation times: ties between records are common, in different writings.
  const observedAt = renderInstant(rng, OBSERVED_FROM + rng.int(5) * 3600, rng.pick(["", "25"]));
  const updated = rng.chance(0.6)
    ? { sourceUpdatedAt: renderInstant(rng, OBSERVED_FROM - 86_400 * (1 + rng.int(5)), "") }
    : {};
  return { observedAt, ...updated, provider: "test-feed", externalId: `ext-${i}` };
}

function showtimeIdOf(i: number): string {
  const n = String(i).padStart(4, "0");
  const previous = String(i - 1).padStart(4, "0");
  return [`st-${n}`, `St-${previous}`, `st/${n}`, `st ${n}%`, `st.${n}.é`, `🎟${n}`, `st-${n}`][i % 7]!;
}

export interface DatasetOptions {
  seed: number;
  showtimes: number;
  cinemas?: number;
  films?: number;
}

/** A dataset with the tricky ids plus `cinemas`/`films` plain ones, records in schema field order. */
export function generateDataset(options: DatasetOptions): Dataset {
  const rng = createRandom(options.seed);
  const cinemaIds = [...TRICKY_CINEMA_IDS, ...Array.from({ length: options.cinemas ?? 3 }, (_, i) => `cin-${i}`)];
  const filmIds = [...TRICKY_FILM_IDS, ...Array.from({ length: options.films ?? 3 }, (_, i) => `film-${i}`)];
  const cinemas = cinemaIds.map(
    (id, i): Cinema => ({
      id,
      ...(i % 2 ? { chainId: "chain/1" } : {}),
      name: `Cinema ${i}`,
      location: {
        countryCode: i % 3 ? "GB" : "DE",
        locality: "Town",
        postcode: `P${i}X`,
        ...(i % 4 ? {} : { latitude: 51.5, longitude: -0.125 }),
      },
      provenance: provenanceOf(rng, i),
    }),
  );
  const films = filmIds.map(
    (id, i): Film => ({
      id,
      title: `Film ${i}`,
      ...(i % 3 ? { durationMinutes: 90 + i } : {}),
      ...(i % 2 ? { releaseDate: "2024-02-29" } : {}),
      provenance: provenanceOf(rng, i),
    }),
  );
  const pool = Math.max(1, Math.ceil(options.showtimes / 3));
  const showtimes = Array.from({ length: options.showtimes }, (_, i): Showtime => {
    const slot = rng.int(pool);
    const attributeIds = ATTRIBUTES.filter(() => rng.chance(0.25)).map((a) => a.id);
    return {
      id: showtimeIdOf(i),
      filmId: rng.pick(filmIds),
      cinemaId: rng.pick(cinemaIds),
      startsAt: renderInstant(rng, SHOWS_FROM + Math.floor(slot / 2) * 1800, FRACTIONS[slot % FRACTIONS.length]!),
      ...(rng.chance(0.5) ? { bookingUrl: `https://tickets.example.com/${i}` } : {}),
      attributeIds,
      ...(rng.chance(0.3) ? { screenName: `Screen ${1 + rng.int(5)}` } : {}),
      provenance: provenanceOf(rng, i),
    };
  });
  return { cinemas, films, attributes: ATTRIBUTES.map((a) => ({ ...a })), showtimes };
}

function toNdjson(records: unknown[]): string {
  // Blank lines are allowed in NDJSON sources (docs/operations.md, "The operator's workflow"); one sits in the middle.
  const lines = records.map((r) => JSON.stringify(r));
  lines.splice(Math.floor(lines.length / 2), 0, "");
  return `${lines.join("\n")}\n`;
}

/** Writes a dataset as data/ source files: JSON arrays and NDJSON, some in nested folders. */
export function writeDataset(dataDir: string, dataset: Dataset): void {
  const half = (items: unknown[]) => Math.ceil(items.length / 2);
  const files: Record<string, string> = {
    "cinemas/europe.json": JSON.stringify(dataset.cinemas.slice(0, half(dataset.cinemas)), null, 2),
    "cinemas/more/rest.ndjson": toNdjson(dataset.cinemas.slice(half(dataset.cinemas))),
    "films/films.ndjson": toNdjson(dataset.films),
    "attributes/catalogue.json": JSON.stringify(dataset.attributes),
    "showtimes/week-1.ndjson": toNdjson(dataset.showtimes.slice(0, half(dataset.showtimes))),
    "showtimes/late/additions.json": JSON.stringify(dataset.showtimes.slice(half(dataset.showtimes))),
  };
  for (const [relative, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dataDir, relative)), { recursive: true });
    writeFileSync(path.join(dataDir, relative), text);
  }
}

/**
 * Writes the dataset under `root`/data-<label> and builds (or rebuilds) `snapshotDir` from it;
 * `layout` sets the showtime blocks' size and restart interval (tiny blocks reach block boundaries in small data).
 */
export async function buildDataset(
  dataset: Dataset,
  root: string,
  snapshotDir: string,
  label = "data",
  layout?: BlockLayout,
): Promise<void> {
  const dataDir = path.join(root, label);
  writeDataset(dataDir, dataset);
  const result = await runBuild({
    dataDir,
    output: createDiskWriter(snapshotDir),
    gzipLevel: 1,
    gzipWorkers: 0,
    layout,
  });
  if (!result.ok) throw new Error(`test dataset is invalid:\n${JSON.stringify(result.problems.slice(0, 5), null, 2)}`);
}

// ---- The oracle: written from the spec's rules, sharing no code with the core. ----

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|([+-])(\d{2}):(\d{2}))$/;

/** Compares two valid date-times as instants: offsets applied, every fractional digit kept. */
export function compareInstants(a: string, b: string): number {
  const [sa, fa] = instantOf(a);
  const [sb, fb] = instantOf(b);
  if (sa !== sb) return sa - sb;
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

function instantOf(text: string): [number, string] {
  const m = DATE_TIME.exec(text);
  if (!m) throw new Error(`oracle: not a date-time: ${text}`);
  const n = (i: number) => Number(m[i] ?? 0);
  const offset = m[8] === "Z" ? 0 : (m[9] === "-" ? -1 : 1) * (n(10) * 60 + n(11));
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0..99 to 1900..1999.
  const day = new Date(0);
  day.setUTCFullYear(n(1), n(2) - 1, n(3));
  const seconds = day.getTime() / 1000 + n(4) * 3600 + n(5) * 60 + n(6) - offset * 60;
  return [seconds, (m[7] ?? "").replace(/0+$/, "")];
}

const byId = (a: AnyRecord, b: AnyRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** A resource's records in API order: showtimes by instant then id, the rest by id (plain string comparison). */
export function sortRecords<T extends AnyRecord>(resource: Resource, records: readonly T[]): T[] {
  if (resource !== "showtimes") return [...records].sort(byId);
  return [...records].sort((a, b) => compareInstants((a as Showtime).startsAt, (b as Showtime).startsAt) || byId(a, b));
}

export interface ListFilters {
  cinemaId?: string;
  filmId?: string;
  startsAfter?: string;
}

/** The zone a cinema without one gets (decision: time zones): by its coordinates, else its country's only zone. */
function derivedZone(location: Record<string, unknown>): string | undefined {
  if (typeof location.latitude === "number" && typeof location.longitude === "number") {
    const zones = zonesAtPoint(location.latitude, location.longitude).filter((z) => !z.startsWith("Etc/"));
    if (zones.length === 1) return zones[0];
  }
  const locale = new Intl.Locale(`und-${location.countryCode}`) as Intl.Locale & {
    timeZones?: string[];
    getTimeZones?: () => string[];
  };
  const zones = locale.getTimeZones?.() ?? locale.timeZones ?? [];
  return zones.length === 1 ? zones[0] : undefined;
}

/**
 * A cinema as the API serves it: its location's timeZone as given, or derived, by its IANA primary
 * name (the build's table, which test/zone-names.test.ts checks), last in location.
 */
export function servedCinema<T extends AnyRecord>(record: T): T {
  const cinema = record as Cinema;
  if (!("location" in record)) return record;
  const given = cinema.location.timeZone as string | undefined;
  const found = given ?? derivedZone(cinema.location);
  const zone = found === undefined ? undefined : primaryZoneName(found);
  return zone === undefined || zone === given
    ? record
    : ({ ...cinema, location: { ...cinema.location, timeZone: zone } } as unknown as T);
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** A zone's offset (seconds east of UTC) at an instant (epoch seconds), by the runtime's own time-zone data. */
function zoneOffsetAt(zone: string, seconds: number): number {
  let format = offsetFormats.get(zone);
  if (!format)
    offsetFormats.set(
      zone,
      (format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })),
    );
  const name = format.formatToParts(seconds * 1000).find((p) => p.type === "timeZoneName")!.value;
  const m = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name)!;
  return m[1] ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
}

/**
 * A showtime's end (decision: showtime ends): `minutes` after its start, its start's precision
 * kept; in Z when the start is; else in the offset of the cinema's zone at the end when the start
 * is written in that zone's offset, otherwise in the start's offset. Undefined past the year 9999.
 */
export function oracleEnd(startsAt: string, minutes: number, zone: string | undefined): string | undefined {
  const m = DATE_TIME.exec(startsAt);
  if (!m) throw new Error(`oracle: not a date-time: ${startsAt}`);
  const [seconds] = instantOf(startsAt);
  const written = m[8] === "Z" ? 0 : (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 3600 + Number(m[11]) * 60);
  const end = seconds + minutes * 60;
  let offset = written;
  if (m[8] !== "Z" && zone !== undefined && zoneOffsetAt(zone, seconds) === written) offset = zoneOffsetAt(zone, end);
  const wall = new Date(0);
  wall.setUTCSeconds(end + offset);
  if (wall.getUTCFullYear() > 9999) return undefined;
  const iso = wall.toISOString();
  const precision = startsAt.slice(16, startsAt.length - m[8]!.length);
  const abs = Math.abs(offset) / 60;
  const two = (n: number) => String(Math.floor(n)).padStart(2, "0");
  const zoneText = offset === written ? m[8] : `${offset < 0 ? "-" : "+"}${two(abs / 60)}:${two(abs % 60)}`;
  return `${iso.slice(0, 16)}${precision}${zoneText}`;
}

/** The zone each cinema of a dataset is served with (servedCinema), by id. */
export function servedZones(dataset: Dataset): Map<string, string | undefined> {
  return new Map(dataset.cinemas.map((c) => [c.id, servedCinema(c).location.timeZone as string | undefined]));
}

/**
 * A showtime as the API serves it: `endsAt` right after `startsAt` when its film has a running time,
 * by oracleEnd with its cinema's zone as served.
 */
export function servedShowtime(
  dataset: Dataset,
  showtime: Showtime,
  zones = servedZones(dataset),
): Showtime & { endsAt?: string } {
  const minutes = dataset.films.find((f) => f.id === showtime.filmId)?.durationMinutes;
  if (minutes === undefined) return showtime;
  const endsAt = oracleEnd(showtime.startsAt, minutes, zones.get(showtime.cinemaId));
  if (endsAt === undefined) return showtime;
  const { id, filmId, cinemaId, startsAt, ...rest } = showtime;
  return { id, filmId, cinemaId, startsAt, endsAt, ...rest };
}

/** Filter-then-sort: every record a list request must page through, in order, as served. */
export function expectedList(dataset: Dataset, resource: Resource, filters: ListFilters = {}): AnyRecord[] {
  if (resource === "cinemas") return sortRecords(resource, dataset.cinemas.map(servedCinema));
  const records = (dataset[resource] as AnyRecord[]).filter((r) => {
    const s = r as Showtime;
    return (
      (filters.cinemaId === undefined || s.cinemaId === filters.cinemaId) &&
      (filters.filmId === undefined || s.filmId === filters.filmId) &&
      (filters.startsAfter === undefined || compareInstants(s.startsAt, filters.startsAfter) > 0)
    );
  });
  const sorted = sortRecords(resource, records);
  if (resource !== "showtimes") return sorted;
  const zones = servedZones(dataset);
  return sorted.map((s) => servedShowtime(dataset, s as Showtime, zones));
}

/**
 * Earliest observedAt, latest sourceUpdatedAt; on a tie the first record's writing wins; `fallback` when none has
 * provenance.
 */
export function foldFreshness(records: readonly AnyRecord[], fallback?: Freshness): Freshness | undefined {
  let observed: string | undefined;
  let updated: string | undefined;
  for (const record of records) {
    if (!("provenance" in record)) continue;
    const { observedAt, sourceUpdatedAt } = record.provenance;
    if (observed === undefined || compareInstants(observedAt, observed) < 0) observed = observedAt;
    if (sourceUpdatedAt && (updated === undefined || compareInstants(sourceUpdatedAt, updated) > 0))
      updated = sourceUpdatedAt;
  }
  if (observed === undefined) return fallback;
  return updated === undefined ? { observedAt: observed } : { observedAt: observed, sourceUpdatedAt: updated };
}

/** The snapshot's freshness: folded over every cinema, film and showtime, each list in API order. */
export function snapshotFreshness(dataset: Dataset): Freshness {
  const all = (["cinemas", "films", "showtimes"] as const).flatMap((r) => sortRecords(r, dataset[r] as AnyRecord[]));
  return foldFreshness(all) ?? { observedAt: "1970-01-01T00:00:00Z" };
}
