/**
 * What a validation worker sends back per source file (validate-worker.ts → validate-parallel.ts).
 * Repeated values (cinema and film ids, date-times, providers, screens, attribute lists) travel
 * once, as rows of the worker's tables; a showtime travels as numbers plus its three strings of
 * its own. The main thread then does no more per record than build its entry.
 */
import type { PlainFacts, RecordIdentity } from "./check-record.js";
import type { Problem } from "./problems.js";

/** Per showtime, in `numbers`: these in this order; ABSENT for an absent optional value. */
export const SHOWTIME_NUMBERS = [
  "line",
  "index",
  "cinemaId",
  "filmId",
  "startsAt",
  "observedAt",
  "sourceUpdatedAt",
  "provider",
  "screenName",
  "attributeIds",
] as const;
export const NUMBERS_PER_SHOWTIME = SHOWTIME_NUMBERS.length;
/** Per showtime, in `strings`: id, externalId, bookingUrl ("" when absent). */
export const STRINGS_PER_SHOWTIME = 3;
export const ABSENT = -1;

export interface FileResult {
  /** The file's place in the build's source list. */
  at: number;
  problems: Problem[];
  /** What the file's invalid records say about others (ids, references), in file order. */
  invalid: Array<RecordIdentity & { line?: number; index?: number }>;
  /** Valid cinemas, films or attributes, in file order. */
  plain: Array<PlainFacts & { line?: number; index?: number }>;
  /** Valid showtimes, in file order. */
  numbers: Float64Array;
  strings: string[];
  /** Rows the worker's tables gained with this file. */
  newStrings: string[];
  newLists: number[][];
}

/** Numbers rows for repeated values, in first-seen order (a worker's side of the tables). */
export class RowTable<T> {
  private readonly rows = new Map<string, number>();
  private fresh: T[] = [];

  constructor(private readonly keyOf: (value: T) => string) {}

  row(value: T | undefined): number {
    if (value === undefined) return ABSENT;
    const key = this.keyOf(value);
    let row = this.rows.get(key);
    if (row === undefined) {
      this.rows.set(key, (row = this.rows.size));
      this.fresh.push(value);
    }
    return row;
  }

  /** Rows added since the last call. */
  takeNew(): T[] {
    const fresh = this.fresh;
    this.fresh = [];
    return fresh;
  }
}
