/**
 * A brute-force oracle of local days (decision: local dates): Intl asked minute by minute, sharing
 * no code with the build or the core.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock epoch minutes (as if UTC) in `zone` at epoch second `t`. */
export function wallMinutes(zone: string, t: number): number {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    formats.set(zone, format);
  }
  const p = Object.fromEntries(format.formatToParts(t * 1000).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)) / 60_000;
}

export function offsetMinutes(zone: string, t: number): number {
  return wallMinutes(zone, t) - Math.floor(t / 60);
}

const starts = new Map<string, number>();
/** The first epoch minute whose wall clock in `zone` shows at least `localMinute`. */
function dayStart(zone: string, localMinute: number): number {
  const key = `${zone}|${localMinute}`;
  let start = starts.get(key);
  if (start === undefined) {
    start = localMinute - 15 * 60;
    while (wallMinutes(zone, start * 60) < localMinute) start++;
    starts.set(key, start);
  }
  return start;
}

/** Epoch minutes of the start of day `date` + `startMinutes`, as if UTC. */
const localMinuteOf = (date: string, startMinutes: number) => Date.parse(`${date}T00:00:00Z`) / 60_000 + startMinutes;

/**
 * Whether a showtime starting at epoch second `t`, written as `text`, falls on the day `date`
 * (starting `startMinutes` after midnight) at a cinema of `zone`; without a zone, the day its text shows.
 */
export function onDay(zone: string | undefined, t: number, text: string, date: string, startMinutes: number): boolean {
  const local = localMinuteOf(date, startMinutes);
  if (zone) {
    const minute = t / 60;
    return minute >= dayStart(zone, local) && minute < dayStart(zone, local + 1440);
  }
  const wall = Date.parse(`${text.slice(0, 16)}:00Z`) / 60_000;
  return wall >= local && wall < local + 1440;
}
