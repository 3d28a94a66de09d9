/**
 * What a validation worker sends back per source file (validate-worker.ts → validate-parallel.ts).
 * Showtimes are laid out by their shape (showtime-shape.ts), which both ends make from the same
 * tables: a value of kind "own" travels as one of the record's own strings; repeated values (cinema
 * and film ids, date-times, providers, screens, attribute lists, extension values) travel once, as
 * rows of the worker's tables, and per record as row numbers. The main thread then does no more per
 * record than build its entry.
 */
import type { PlainFacts, RecordIdentity } from "./check-record.js";
import { emptyShowtimeEntry, type Interner, type ShowtimeEntry } from "./entries.js";
import type { Problem } from "../report/problems.js";
import type { Showtime } from "./schemas.js";
import { type ShowtimeShape, valueIn } from "./showtime-shape.js";

/** A row number for an absent value, and a location's absent line or index. */
export const ABSENT = -1;

export interface FileResult {
  /** The file's place in the build's source list. */
  at: number;
  /** Whether this slice of the file's records is its last. */
  last: boolean;
  problems: Problem[];
  /** What the file's invalid records say about others (ids, references), in file order. */
  invalid: Array<RecordIdentity & { line?: number; index?: number }>;
  /** Valid cinemas, films or attributes, in file order. */
  plain: Array<PlainFacts & { line?: number; index?: number }>;
  /** Valid showtimes, in file order: per showtime its line and index, then a row per value of `shape.rows`. */
  numbers: Int32Array;
  /** Per showtime, a string per value of `shape.own` (undefined when absent). */
  strings: Array<string | undefined>;
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

/** A worker's tables: strings (date-times among them) and lists of string rows. */
export class WorkerTables {
  readonly strings = new RowTable<string>((text) => text);
  readonly lists = new RowTable<number[]>((rows) => rows.join(","));
}

/** Where a worker writes a file's showtimes. */
export interface ShowtimeWire {
  numbers: number[];
  strings: Array<string | undefined>;
}

/** Appends one valid showtime to `out` (worker side). */
export function writeShowtime(
  showtime: Showtime,
  where: { line?: number; index?: number },
  out: ShowtimeWire,
  tables: WorkerTables,
  shape: ShowtimeShape,
): void {
  for (const value of shape.own) out.strings.push(valueIn(showtime, value) as string | undefined);
  out.numbers.push(where.line ?? ABSENT, where.index ?? ABSENT);
  for (const value of shape.rows) {
    const given = valueIn(showtime, value);
    out.numbers.push(
      value.kind === "list"
        ? tables.lists.row((given as string[] | undefined)?.map((id) => tables.strings.row(id)))
        : tables.strings.row(given as string | undefined),
    );
  }
}

/** One worker's tables as the main thread holds them: its row numbers → the run's shared values. */
export interface HeldTables {
  strings: string[];
  lists: string[][];
}

/** One result's showtimes as this thread keeps them: the wire's values, the file, the worker's tables. */
export interface ShowtimeSlice {
  file: string;
  numbers: Int32Array;
  strings: Array<string | undefined>;
  tables: HeldTables;
}

/** How many showtimes a slice holds; throws when its values are out of step with the shape. */
export function countOf(slice: ShowtimeSlice, shape: ShowtimeShape): number {
  const count = slice.numbers.length / (2 + shape.rows.length);
  if (!Number.isInteger(count) || slice.strings.length !== count * shape.own.length)
    throw new Error("validation worker: showtime values out of step with the shape");
  return count;
}

/**
 * The entry of a slice's `k`th showtime (main-thread side). Strings and lists come from the tables
 * already shared (HeldTables holds the interner's copies); date-times get their instant keys from
 * the interner. Lines and indexes come from an Int32Array: small integers, held in the entry itself
 * (from a Float64Array each was a heap number of its own, 16 bytes a showtime).
 */
export function showtimeEntryAt(
  slice: ShowtimeSlice,
  k: number,
  interner: Interner,
  shape: ShowtimeShape,
): ShowtimeEntry {
  const n = slice.numbers;
  let at = k * (2 + shape.rows.length);
  let s = k * shape.own.length;
  const line = n[at++]!;
  const index = n[at++]!;
  const entry = emptyShowtimeEntry(shape, {
    file: slice.file,
    line: line === ABSENT ? undefined : line,
    index: index === ABSENT ? undefined : index,
  });
  for (const value of shape.own) entry[value.name] = slice.strings[s++];
  for (const value of shape.rows) {
    const row = n[at++]!;
    if (row === ABSENT) continue;
    if (value.kind === "list") entry[value.name] = slice.tables.lists[row];
    else if (value.kind === "time") entry[value.name] = interner.time(slice.tables.strings[row]!);
    else entry[value.name] = slice.tables.strings[row];
  }
  return entry as unknown as ShowtimeEntry;
}

/** Adds the entries of one result's showtimes to `into`, in file order (main-thread side); returns how many. */
export function readShowtimes(
  slice: ShowtimeSlice,
  interner: Interner,
  shape: ShowtimeShape,
  into: ShowtimeEntry[],
): number {
  const count = countOf(slice, shape);
  for (let k = 0; k < count; k++) into.push(showtimeEntryAt(slice, k, interner, shape));
  return count;
}
