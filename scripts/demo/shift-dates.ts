/**
 * The demo data made current (decision: a demo that is always current): every showtime moved by
 * whole days so that the first day it lists is `today`, at the same wall-clock time at its cinema
 * (so an evening show stays an evening show across a change of summer time) and written as the
 * source wrote it (in Z, or with the cinema's offset on the new day); provenance times move by the
 * same days. A showtime id that names its start's date (data/'s `st-…-20261123-1315-s2`) names the
 * moved date; films and everything else stay as they are.
 */
import { daysFromCivil, epochSecondsOfKey, instantKeyOf } from "../../api/_core/format/primitives/date-time.js";
import { zoneOfCoordinates, zoneOfCountry } from "../../build/localize/zone-lookup.js";
import { offsetAt } from "../../build/localize/zone-offsets.js";

type Json = Record<string, unknown>;

export interface DemoRecords {
  cinemas: Json[];
  showtimes: Json[];
  films: Json[];
}

const DAY = 86_400;

/** A date-time's text for an epoch second: in Z, or at an offset (seconds east of UTC). */
function formatAt(epochSeconds: number, offset: number | undefined): string {
  const local = new Date((epochSeconds + (offset ?? 0)) * 1000).toISOString().slice(0, 19);
  if (offset === undefined) return `${local}Z`;
  const abs = Math.abs(offset);
  const sign = offset < 0 ? "-" : "+";
  const hours = String(Math.floor(abs / 3600)).padStart(2, "0");
  const minutes = String((abs % 3600) / 60).padStart(2, "0");
  return `${local}${sign}${hours}:${minutes}`;
}

/** The zone the build will give a cinema (as given, or derived the same way): what its wall clock is. */
function zoneOf(cinema: Json): string | undefined {
  const location = cinema.location as Json;
  if (typeof location.timeZone === "string") return location.timeZone;
  if (typeof location.latitude === "number" && typeof location.longitude === "number") {
    const zone = zoneOfCoordinates(location.latitude, location.longitude);
    if (zone) return zone;
  }
  return zoneOfCountry(location.countryCode as string);
}

/** The instant whose wall clock in `zone` shows `wall` (epoch seconds as if UTC); the later one in a gap. */
function instantOfWall(zone: string, wall: number): number {
  const guess = wall - offsetAt(zone, wall);
  return wall - offsetAt(zone, guess);
}

/** Moves one start time by `days` whole days of its cinema's wall clock. */
function shiftStart(text: string, zone: string | undefined, days: number): string {
  const instant = epochSecondsOfKey(instantKeyOf(text));
  const written = text.endsWith("Z") ? undefined : offsetFromText(text);
  if (!zone) return formatAt(instant + days * DAY, written);
  const wall = instant + offsetAt(zone, instant) + days * DAY;
  const moved = instantOfWall(zone, wall);
  return formatAt(moved, written === undefined ? undefined : offsetAt(zone, moved));
}

function offsetFromText(text: string): number {
  const sign = text[text.length - 6] === "-" ? -1 : 1;
  return sign * (Number(text.slice(-5, -3)) * 3600 + Number(text.slice(-2)) * 60);
}

/** Moves an instant by whole days, keeping the offset it was written with. */
function shiftInstant(text: string, days: number): string {
  const instant = epochSecondsOfKey(instantKeyOf(text));
  return formatAt(instant + days * DAY, text.endsWith("Z") ? undefined : offsetFromText(text));
}

function shiftProvenance(record: Json, days: number): Json {
  const provenance = record.provenance as Json | undefined;
  if (!provenance) return record;
  const moved: Json = { ...provenance, observedAt: shiftInstant(provenance.observedAt as string, days) };
  if (typeof provenance.sourceUpdatedAt === "string")
    moved.sourceUpdatedAt = shiftInstant(provenance.sourceUpdatedAt, days);
  return { ...record, provenance: moved };
}

const dayNumber = (date: string) =>
  daysFromCivil(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));

/** The date of a start on its cinema's wall clock (as written without a zone), YYYY-MM-DD. */
function wallDateOf(text: string, zone: string | undefined): string {
  if (!zone) return text.slice(0, 10);
  const instant = epochSecondsOfKey(instantKeyOf(text));
  return new Date((instant + offsetAt(zone, instant)) * 1000).toISOString().slice(0, 10);
}

/**
 * The id with its start's date, where it names it as YYYYMMDD between non-digits, moved by `days`:
 * the same moved date gives the same id, and ids that differed only in it still differ.
 */
function moveIdDate(id: string, wallDate: string, days: number): string {
  const compact = wallDate.replaceAll("-", "");
  const moved = new Date((dayNumber(wallDate) + days) * DAY * 1000).toISOString().slice(0, 10).replaceAll("-", "");
  return id.replace(new RegExp(`(?<![0-9])${compact}(?![0-9])`, "g"), moved);
}

/** Throws when moving ids' dates made two different ids one (an id naming another date than its start's). */
function checkIdsStayDistinct(before: readonly Json[], after: readonly Json[]): void {
  const sources = new Map<string, string>();
  after.forEach((showtime, i) => {
    const [id, was] = [showtime.id as string, before[i]!.id as string];
    const other = sources.get(id);
    if (other !== undefined && other !== was)
      throw new Error(`moving the demo's dates gives showtimes ${other} and ${was} one id, ${id}`);
    sources.set(id, was);
  });
}

/** The first day the demo lists: the earliest showtime's date as its text writes it. */
export function firstDayOf(showtimes: readonly Json[]): string {
  return showtimes.map((s) => (s.startsAt as string).slice(0, 10)).sort()[0]!;
}

/** The demo's records with its first day moved to `today` (YYYY-MM-DD). */
export function shiftDemo(records: DemoRecords, today: string): DemoRecords {
  if (records.showtimes.length === 0) return records;
  const days = dayNumber(today) - dayNumber(firstDayOf(records.showtimes));
  const zones = new Map(records.cinemas.map((c) => [c.id as string, zoneOf(c)]));
  const showtimes = records.showtimes.map((s) => {
    const zone = zones.get(s.cinemaId as string);
    const startsAt = s.startsAt as string;
    const id = typeof s.id === "string" ? moveIdDate(s.id, wallDateOf(startsAt, zone), days) : s.id;
    return { ...shiftProvenance(s, days), id, startsAt: shiftStart(startsAt, zone, days) };
  });
  checkIdsStayDistinct(records.showtimes, showtimes);
  return {
    cinemas: records.cinemas.map((c) => shiftProvenance(c, days)),
    films: records.films.map((f) => shiftProvenance(f, days)),
    showtimes,
  };
}
