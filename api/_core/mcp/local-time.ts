/**
 * A showtime's start (and end) as its cinema's wall clock shows it, for the text a model reads (decision:
 * MCP): by the offsets the snapshot stores for the cinema's zone, the ones `date` finds local days
 * by (decision: local dates), never the server's own time-zone data, so every server writes the
 * same text. At a cinema without a zone (or outside the snapshot's zones), the time as written,
 * with the offset it is written in. A time whose cinema is not named is shown in the zone it must
 * be in when the snapshot's zones tell (zoneOfTime).
 */
import { civilFromDays, daysFromCivil, digitsAt } from "../format/primitives/date-time.js";

/** The snapshot's zones, to name the zone of a time whose cinema the text does not know. */
export interface ZoneNames {
  readonly names: readonly string[];
  readonly hasCinemaWithoutZone: boolean;
}

/**
 * The offset (seconds east of UTC) of a named zone at an instant (epoch seconds); undefined when
 * unknown. `zones`, when given, lists the snapshot's zones (zoneOfTime).
 */
export type ZoneOffset = ((zone: string, epochSeconds: number) => number | undefined) & {
  readonly zones?: () => ZoneNames;
};

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** The spec's date-time (§2): seconds and fraction optional, a zone required. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|([+-])(\d{2}):(\d{2}))$/;

const SECONDS_A_DAY = 86_400;
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, "0"));

/** A wall-clock time's hours and minutes (epoch seconds read as UTC fields): `19:30`. */
function clockTime(seconds: number): string {
  const inDay = seconds - Math.floor(seconds / SECONDS_A_DAY) * SECONDS_A_DAY;
  return `${TWO_DIGITS[Math.floor(inDay / 3600)]}:${TWO_DIGITS[Math.floor((inDay % 3600) / 60)]}`;
}

/**
 * A wall-clock date (epoch seconds read as UTC fields) as `Fri 27 Nov 2026` (`Fri 27 Nov`: no year),
 * the proleptic Gregorian calendar's as Date has it, counted without a Date (H. Hinnant's civil_from_days).
 */
function clockDate(seconds: number, withYear: boolean): string {
  const days = Math.floor(seconds / SECONDS_A_DAY);
  const civil = civilFromDays(days);
  const year = withYear ? ` ${Math.floor(civil / 10_000)}` : "";
  // 1970-01-01 was a Thursday.
  return `${WEEKDAYS[(((days + 4) % 7) + 7) % 7]} ${civil % 100} ${MONTHS[(Math.floor(civil / 100) % 100) - 1]}${year}`;
}

/** A wall-clock time (epoch seconds read as UTC fields) as `Fri 27 Nov 2026, 19:30` (`Fri 27 Nov, 19:30`: no year). */
function wallClock(seconds: number, withYear = true): string {
  return `${clockDate(seconds, withYear)}, ${clockTime(seconds)}`;
}

/** A date-time as written: its wall clock (epoch seconds read as UTC fields), its offset and its zone text. */
interface Written {
  written: number;
  offset: number;
  zone: string;
}

/**
 * A date-time in the form the API writes, `2026-11-27T18:30:00Z` or `…:00-05:00`, read without
 * the expression (what DATE_TIME reads of it); undefined for any other form.
 */
function writtenPlainly(value: string): Written | undefined {
  const zoned = value.length === 25;
  if (!(zoned || value.length === 20)) return undefined;
  // The separators: `-` `-` `T` `:` `:`, then `Z`, or `+` or `-` and a `:` in the offset.
  const separated =
    value.charCodeAt(4) === 0x2d &&
    value.charCodeAt(7) === 0x2d &&
    value.charCodeAt(10) === 0x54 &&
    value.charCodeAt(13) === 0x3a &&
    value.charCodeAt(16) === 0x3a;
  if (!separated) return undefined;
  const sign = value.charCodeAt(19);
  if (zoned ? (sign !== 0x2b && sign !== 0x2d) || value.charCodeAt(22) !== 0x3a : sign !== 0x5a) return undefined;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  const offsetHours = zoned ? digitsAt(value, 20, 2) : 0;
  const offsetMinutes = zoned ? digitsAt(value, 23, 2) : 0;
  if (Math.min(year, month, day, hour, minute, second, offsetHours, offsetMinutes) < 0) return undefined;
  // Fields past their range (never written by the API) are left to Date's reading of them.
  if (year < 100 || month < 1 || month > 12 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const written = daysFromCivil(year, month, day) * SECONDS_A_DAY + hour * 3600 + minute * 60 + second;
  const offset = (sign === 0x2d ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
  return { written, offset, zone: zoned ? value.slice(19) : "Z" };
}

function writtenOf(startsAt: string): Written | undefined {
  return writtenPlainly(startsAt) ?? writtenByExpression(startsAt);
}

function writtenByExpression(startsAt: string): Written | undefined {
  const parts = DATE_TIME.exec(startsAt);
  if (!parts) return undefined;
  const [, year, month, day, hour, minute, second, zone, sign, offsetHours, offsetMinutes] = parts;
  const written = Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +(second ?? 0)) / 1000;
  const offset = zone === "Z" ? 0 : (sign === "-" ? -1 : 1) * (+offsetHours! * 3600 + +offsetMinutes! * 60);
  return { written, offset, zone: zone! };
}

/** A time's wall clock (epoch seconds read as UTC fields) in its cinema's zone, else as written; its zone's name. */
function clockOf(
  value: string,
  timeZone: string | undefined,
  zoneOffset: ZoneOffset,
): { seconds: number; label: string } | undefined {
  const time = writtenOf(value);
  if (!time) return undefined;
  const instant = time.written - time.offset;
  const offset = timeZone === undefined ? undefined : zoneOffset(timeZone, instant);
  if (offset !== undefined) return { seconds: instant + offset, label: timeZone! };
  return { seconds: time.written, label: time.zone === "Z" ? "UTC" : `UTC${time.zone}` };
}

/** `2026-11-27T18:30:00Z` in Europe/Berlin: `Fri 27 Nov 2026, 19:30 Europe/Berlin`; without a zone, `… 18:30 UTC`. */
export function localTimeOf(startsAt: string, timeZone: string | undefined, zoneOffset: ZoneOffset): string {
  const start = clockOf(startsAt, timeZone, zoneOffset);
  return start ? `${wallClock(start.seconds)} ${start.label}` : startsAt;
}

/**
 * A showtime's start and end (decision: showtime ends) on the same clock: `Fri 27 Nov 2026,
 * 19:30–21:26 Europe/Berlin`; an end on another day says its day (`23:30–Sat 28 Nov, 01:26`); an
 * end written in another offset than its start at a cinema whose zone is not known says its own.
 * The start alone when there is no end.
 */
export function localSpanOf(
  startsAt: string,
  endsAt: string | undefined,
  timeZone: string | undefined,
  zoneOffset: ZoneOffset,
): string {
  const start = clockOf(startsAt, timeZone, zoneOffset);
  const end = endsAt === undefined ? undefined : clockOf(endsAt, timeZone, zoneOffset);
  if (!start || !end) return localTimeOf(startsAt, timeZone, zoneOffset);
  const sameDay = Math.floor(start.seconds / SECONDS_A_DAY) === Math.floor(end.seconds / SECONDS_A_DAY);
  const until = sameDay ? clockTime(end.seconds) : wallClock(end.seconds, false);
  if (start.label === end.label) return `${wallClock(start.seconds)}–${until} ${start.label}`;
  return `${wallClock(start.seconds)} ${start.label}–${until} ${end.label}`;
}

/**
 * The zone to show a time in whose cinema the answer does not name (a film's first matching
 * showtime; decision: MCP): the snapshot's zone when every cinema has that one; else the one zone
 * of the snapshot at the offset the time is written in at that instant (sources write the cinema's
 * offset, or `Z`); undefined when none or several are, and the time is shown as written.
 */
export function zoneOfTime(startsAt: string, zoneOffset: ZoneOffset): string | undefined {
  const zones = zoneOffset.zones?.();
  const time = writtenOf(startsAt);
  if (!zones || !time) return undefined;
  if (zones.names.length === 1 && !zones.hasCinemaWithoutZone) return zones.names[0];
  const instant = time.written - time.offset;
  const fitting = zones.names.filter((zone) => zoneOffset(zone, instant) === time.offset);
  return fitting.length === 1 ? fitting[0] : undefined;
}
