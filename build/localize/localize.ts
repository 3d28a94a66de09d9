/**
 * Stage 5: every cinema's time zone (decision: time zones): the one its record gives, else one
 * derived from its coordinates, else from its country when that country has a single zone;
 * otherwise none; each by its IANA primary name. Each zone's offsets over the showtimes' days are computed for the
 * snapshot, and
 * a showtime whose written offset is not its cinema's zone's at that instant is a warning (its
 * instant is kept as written: the offset may be right and the zone data old, or the other way).
 */
import { epochSecondsOfKey, writtenOffsetOf } from "../../api/_core/format/primitives/date-time.js";
import type { ZoneTable } from "../../api/_core/format/layout/content.js";
import type { DroppedShowtimes, ScheduledRecords } from "./drop-before.js";
import type { PlainEntry, ShowtimeEntry, ValidRecords } from "../validate/entries.js";
import type { Problem } from "../report/problems.js";
import { zoneOfCoordinates, zoneOfCountry } from "./zone-lookup.js";
import { primaryZoneName } from "./zone-names.js";
import { isKnownTimeZone, zoneOffsets, type ZoneOffsets } from "./zone-offsets.js";

/** How many cinemas got their zone each way. */
export interface ZoneCounts {
  given: number;
  fromCoordinates: number;
  fromCountry: number;
  without: number;
}

export interface LocalizedRecords {
  records: ValidRecords;
  zones: ZoneTable;
  zoneCounts: ZoneCounts;
  dropped?: DroppedShowtimes;
}

/** Offsets are kept this far around the showtimes' instants: a local day (from 06:00 at most, ±14 h) always fits. */
const MARGIN_SECONDS = 3 * 86_400;

/**
 * The zone's IANA primary name, whatever name it came by, so a snapshot names a city's zone alike on
 * every path and every Node line (decision: time zones); as found if this runtime does not know the
 * primary name (test/zone-names.test.ts fails first on such a line).
 */
function primaryOf(zone: string): string {
  const primary = primaryZoneName(zone);
  return primary === zone || isKnownTimeZone(primary) ? primary : zone;
}

/** A cinema's zone, by its primary name, and where it came from. */
function zoneOf(cinema: PlainEntry): { zone?: string; how: keyof ZoneCounts } {
  if (cinema.timeZone) return { zone: primaryOf(cinema.timeZone), how: "given" };
  if (cinema.latitude !== undefined && cinema.longitude !== undefined) {
    const zone = zoneOfCoordinates(cinema.latitude, cinema.longitude);
    if (zone) return { zone: primaryOf(zone), how: "fromCoordinates" };
  }
  const zone = cinema.countryCode && zoneOfCountry(cinema.countryCode);
  return zone ? { zone: primaryOf(zone), how: "fromCountry" } : { how: "without" };
}

/** The cinema's canonical JSON with a derived or renamed zone in its location (last, as the schema orders it). */
function withZone(cinema: PlainEntry, zone: string): PlainEntry {
  const record = JSON.parse(Buffer.from(cinema.json).toString("utf8"));
  record.location.timeZone = zone;
  return { ...cinema, timeZone: zone, json: Buffer.from(JSON.stringify(record)) };
}

/** The epoch seconds the showtimes span, with a margin; [0, 0] without showtimes. */
function spanOf(showtimes: readonly ShowtimeEntry[]): [number, number] {
  if (showtimes.length === 0) return [0, 0];
  let [first, last] = [Infinity, -Infinity];
  for (const s of showtimes) {
    const t = epochSecondsOfKey(s.startsAt.key);
    if (t < first) first = t;
    if (t > last) last = t;
  }
  return [first - MARGIN_SECONDS, last + MARGIN_SECONDS];
}

/** The offset of a zone's table at an instant. */
function offsetIn(offsets: ZoneOffsets, t: number): number {
  let offset = offsets.initial;
  for (const [at, next] of offsets.changes) if (t >= at) offset = next;
  return offset;
}

function formatOffset(seconds: number): string {
  const sign = seconds < 0 ? "-" : "+";
  const abs = Math.abs(seconds);
  const hh = String(Math.floor(abs / 3600)).padStart(2, "0");
  const mm = String(Math.floor((abs % 3600) / 60)).padStart(2, "0");
  return `${sign}${hh}:${mm}`;
}

/** A warning for every showtime written with an offset its cinema's zone does not have at that instant. */
function checkOffsets(
  showtimes: readonly ShowtimeEntry[],
  zoneOfCinema: Map<string, string>,
  offsets: Map<string, ZoneOffsets>,
  warnings: Problem[],
): void {
  for (const s of showtimes) {
    const zone = zoneOfCinema.get(s.cinemaId);
    const written = writtenOffsetOf(s.startsAt.text);
    if (zone === undefined || written === undefined) continue;
    const actual = offsetIn(offsets.get(zone)!, epochSecondsOfKey(s.startsAt.key));
    if (actual === written) continue;
    warnings.push({
      code: "offset_mismatch",
      file: s.file,
      line: s.line,
      index: s.index,
      path: "startsAt",
      message:
        `is written with ${formatOffset(written)}, but ${zone} is at ${formatOffset(actual)} then ` +
        "(check the feed's offsets)",
    });
  }
}

export function localizeRecords(scheduled: ScheduledRecords, warnings: Problem[]): LocalizedRecords {
  const { records } = scheduled;
  const zoneCounts: ZoneCounts = { given: 0, fromCoordinates: 0, fromCountry: 0, without: 0 };
  const zoneOfCinema = new Map<string, string>();
  const cinemas = records.cinemas.map((cinema) => {
    const { zone, how } = zoneOf(cinema);
    zoneCounts[how]++;
    if (zone === undefined) return cinema;
    zoneOfCinema.set(cinema.id, zone);
    return zone === cinema.timeZone ? cinema : withZone(cinema, zone);
  });
  const [from, to] = spanOf(records.showtimes);
  const names = [...new Set(zoneOfCinema.values())].sort();
  const offsets = new Map(names.map((name) => [name, zoneOffsets(name, from, to)]));
  checkOffsets(records.showtimes, zoneOfCinema, offsets, warnings);
  return {
    records: { ...records, cinemas },
    zones: { from, to, zones: names.map((name) => ({ name, ...offsets.get(name)! })) },
    zoneCounts,
    dropped: scheduled.dropped,
  };
}
