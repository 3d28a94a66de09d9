/**
 * The release's "now" and the instant it leaves the past out from (decision: prebuilt releases).
 * Read only by the release's entry, so tests set the clock and never depend on today's date.
 */
import { checkDateTime, epochSecondsOfKey } from "../../api/_core/format/primitives/date-time.js";
import { UsageError } from "./args.js";

const DAY_MS = 86_400_000;

/** RELEASE_NOW (a date-time with a zone) when set, else the system clock; epoch milliseconds. */
export function readNow(env: NodeJS.ProcessEnv, systemNow: () => number = Date.now): number {
  const text = env.RELEASE_NOW;
  if (text === undefined || text === "") return systemNow();
  const check = checkDateTime(text);
  if (!check.ok) throw new UsageError(`RELEASE_NOW must be a date-time with a zone, not ${JSON.stringify(text)}`);
  return epochSecondsOfKey(check.instantKey) * 1000;
}

/**
 * 00:00 UTC of the day `keepPastDays` days before `now`: at least that many whole days of past
 * showtimes stay, so every cinema's current day is whole in any zone, and two releases on the same
 * UTC day leave out the same showtimes (the same data builds the same snapshot id).
 */
export function dropBeforeFor(nowMs: number, keepPastDays: number): string {
  const day = Math.floor(nowMs / DAY_MS) - keepPastDays;
  return `${new Date(day * DAY_MS).toISOString().slice(0, 10)}T00:00:00Z`;
}

/** An instant as the state and the output show it: UTC, whole seconds. */
export function formatInstant(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}
