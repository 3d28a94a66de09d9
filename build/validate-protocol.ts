/**
 * What validation workers send back per source file (validate-worker.ts → validate-parallel.ts).
 * Repeated values (instants, provenance times, cinema and film ids, attribute sets) travel once,
 * as table rows; records refer to them by number. The main thread then does no more per record
 * than build its entry: at 2M showtimes, parsing per-record strings and objects there cost as
 * much as validating them had.
 */
import type { Problem } from "./problems.js";

/** Per record, in `numbers`: these fields in this order; -1 for an absent one. */
export const RECORD_NUMBERS = ["handle", "startsAt", "observedAt", "sourceUpdatedAt", "line", "index", "cinemaId", "filmId", "attributeIds"] as const;
export const NUMBERS_PER_RECORD = RECORD_NUMBERS.length;
export const ABSENT = -1;

export interface FileResult {
  /** The file's place in the build's source list. */
  at: number;
  problems: Problem[];
  /** Each valid record's id, in file order. */
  ids: string[];
  /** NUMBERS_PER_RECORD numbers a record: an arena handle, table rows, line and index. */
  numbers: Float64Array;
  /** Rows the worker's tables gained with this file: date-time texts, strings, lists of strings rows. */
  newTimes: string[];
  newStrings: string[];
  newLists: number[][];
  /** Arena chunks the worker started while reading this file, in its own order. */
  chunks: SharedArrayBuffer[];
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
