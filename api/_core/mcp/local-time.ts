/**
 * A showtime's start as its cinema's wall clock shows it, for the text a model reads (decision:
 * MCP): by the offsets the snapshot stores for the cinema's zone, the ones `date` finds local days
 * by (decision: local dates), never the server's own time-zone data, so every server writes the
 * same text. At a cinema without a zone (or outside the snapshot's zones), the time as written,
 * with the offset it is written in.
 */

/** The offset (seconds east of UTC) of a named zone at an instant (epoch seconds); undefined when unknown. */
export type ZoneOffset = (zone: string, epochSeconds: number) => number | undefined;

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** The spec's date-time (§2): seconds and fraction optional, a zone required. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|([+-])(\d{2}):(\d{2}))$/;

const twoDigits = (n: number) => String(n).padStart(2, "0");

/** A wall-clock time (epoch seconds read as UTC fields) as `Fri 27 Nov 2026, 19:30`. */
function wallClock(seconds: number): string {
  const t = new Date(seconds * 1000);
  const date = `${WEEKDAYS[t.getUTCDay()]} ${t.getUTCDate()} ${MONTHS[t.getUTCMonth()]} ${t.getUTCFullYear()}`;
  return `${date}, ${twoDigits(t.getUTCHours())}:${twoDigits(t.getUTCMinutes())}`;
}

/** `2026-11-27T18:30:00Z` in Europe/Berlin: `Fri 27 Nov 2026, 19:30 Europe/Berlin`; without a zone, `… 18:30 UTC`. */
export function localTimeOf(startsAt: string, timeZone: string | undefined, zoneOffset: ZoneOffset): string {
  const parts = DATE_TIME.exec(startsAt);
  if (!parts) return startsAt;
  const [, year, month, day, hour, minute, second, zone, sign, offsetHours, offsetMinutes] = parts;
  const written = Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +(second ?? 0)) / 1000;
  const writtenOffset = zone === "Z" ? 0 : (sign === "-" ? -1 : 1) * (+offsetHours! * 3600 + +offsetMinutes! * 60);
  const instant = written - writtenOffset;
  const offset = timeZone === undefined ? undefined : zoneOffset(timeZone, instant);
  if (offset !== undefined) return `${wallClock(instant + offset)} ${timeZone}`;
  return `${wallClock(written)} ${zone === "Z" ? "UTC" : `UTC${zone}`}`;
}
