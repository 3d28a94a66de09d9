/** Listings start on a Tuesday in December, when no place in the tables changes its UTC offset. */
export const FIRST_DAY_MS = Date.UTC(2026, 11, 1);
export const DAY_COUNT = 14;
export const DAY_MS = 86_400_000;
/** Feeds are crawled the day before the first listed day (the brief: observedAt within a day before the start). */
export const CRAWL_DAY_MS = Date.UTC(2026, 10, 30);

/** Formats the date of a day counted from FIRST_DAY_MS (negative for earlier days) as YYYY-MM-DD. */
export function formatDay(dayIndex: number): string {
  return new Date(FIRST_DAY_MS + dayIndex * DAY_MS).toISOString().slice(0, 10);
}

/** Returns 0 for Sunday .. 6 for Saturday. */
export function getWeekday(dayIndex: number): number {
  return new Date(FIRST_DAY_MS + dayIndex * DAY_MS).getUTCDay();
}

export function isWeekend(weekday: number): boolean {
  return weekday === 0 || weekday === 6;
}

/** Formats an instant in UTC, with milliseconds only for feeds that report them. */
export function formatInstant(ms: number, withMillis: boolean): string {
  const iso = new Date(Math.round(ms)).toISOString();
  return withMillis ? iso : `${iso.slice(0, 19)}Z`;
}
