/**
 * Validated records as the later stages hold them: the snapshot's content types (format/content.ts)
 * plus where each came from, for problems. At 2M showtimes every object here is walked by each
 * garbage collection, so repeated values (ids of cinemas and films, date-times, attribute lists,
 * screens, providers) are one shared copy each, from the run's Interner.
 */
import { checkDateTime } from "../../api/_core/format/primitives/date-time.js";
import type { PlainRecord, ShowtimeRecord, TimeText } from "../../api/_core/format/layout/content.js";
import type { PlainFacts, RecordIdentity, ShowtimeFacts } from "./check-record.js";
import type { Location } from "../load/read-source-file.js";
import type { Resource } from "./schemas.js";
import { SHOWTIME_SHAPE, type ShowtimeShape, type ShowtimeValue, valueIn } from "./showtime-shape.js";

export type PlainEntry = PlainRecord & Location;
export type ShowtimeEntry = ShowtimeRecord & Location;

/**
 * Showtimes held as validation sent them, each made an entry when read or taken (held-showtimes.ts
 * holds them so): in order, `take` makes those at some positions for good, `all` is every position.
 */
export interface HeldEntries extends Iterable<ShowtimeEntry> {
  readonly length: number;
  take(positions: readonly number[]): ShowtimeEntry[];
  all(): number[];
}

/** Every valid record, per resource, in the source files' fixed order. */
export interface ValidRecords {
  cinemas: PlainEntry[];
  films: PlainEntry[];
  attributes: PlainEntry[];
  showtimes: ShowtimeEntry[];
  /**
   * Valid showtimes not yet made entries, in place of `showtimes` (then empty): a build with markets
   * validated on workers holds them so, and makes a market's entries as it builds it (held-showtimes.ts).
   */
  held?: HeldEntries;
  /** Records that failed validation: what they say about others, for the cross-record checks. */
  invalid: Array<RecordIdentity & Location>;
}

export function emptyRecords(): ValidRecords {
  return { cinemas: [], films: [], attributes: [], showtimes: [], invalid: [] };
}

/** One shared copy of each repeated value; owned by one build run. */
export class Interner {
  private readonly strings = new Map<string, string>();
  private readonly times = new Map<string, TimeText>();
  private readonly lists = new Map<string, string[]>();

  string(value: string): string;
  string(value: string | undefined): string | undefined;
  string(value: string | undefined): string | undefined {
    if (value === undefined) return undefined;
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  /** A list of strings, shared by every record listing the same ones (showtimes' attribute sets). */
  list(values: readonly string[]): string[] {
    const key = JSON.stringify(values);
    let list = this.lists.get(key);
    if (!list) this.lists.set(key, (list = values.map((value) => this.string(value))));
    return list;
  }

  /** A date-time (validated already) with its instant key. */
  time(text: string): TimeText;
  time(text: string | undefined): TimeText | undefined;
  time(text: string | undefined): TimeText | undefined {
    if (text === undefined) return undefined;
    let time = this.times.get(text);
    if (!time) {
      const check = checkDateTime(text);
      if (!check.ok) throw new Error(`not a date-time: ${text}`);
      this.times.set(text, (time = { text: this.string(text), key: this.string(check.instantKey) }));
    }
    return time;
  }
}

export function plainEntryOf(facts: PlainFacts, where: Location, interner: Interner): PlainEntry {
  return {
    id: facts.id,
    json: Buffer.from(facts.json),
    observed: interner.time(facts.observedAt),
    updated: interner.time(facts.sourceUpdatedAt),
    latitude: facts.latitude,
    longitude: facts.longitude,
    countryCode: facts.countryCode,
    timeZone: facts.timeZone,
    file: where.file,
    line: where.line,
    index: where.index,
  };
}

/**
 * A showtime entry with its location and every value unset: a copy of the shape's template, so
 * millions of entries share one object shape whichever path made them (showtime-shape.ts).
 */
export function emptyShowtimeEntry(shape: ShowtimeShape, where: Location): Record<string, unknown> {
  const entry = { ...shape.template };
  entry.file = where.file;
  entry.line = where.line;
  entry.index = where.index;
  return entry;
}

/** A value as an entry holds it, by its kind: repeated values as the run's one shared copy. */
function heldValue(value: ShowtimeValue, given: unknown, interner: Interner): unknown {
  if (given === undefined) return undefined;
  switch (value.kind) {
    case "own":
      return given;
    case "time":
      return interner.time(given as string);
    case "list":
      return interner.list(given as string[]);
    case "shared":
      return interner.string(given as string);
  }
}

export function showtimeEntryOf(
  facts: ShowtimeFacts,
  where: Location,
  interner: Interner,
  shape: ShowtimeShape = SHOWTIME_SHAPE,
): ShowtimeEntry {
  const entry = emptyShowtimeEntry(shape, where);
  for (const value of shape.values) entry[value.name] = heldValue(value, valueIn(facts.showtime, value), interner);
  return entry as unknown as ShowtimeEntry;
}

/** Adds one record's facts to the records of its resource. */
export function addRecord(
  records: ValidRecords,
  resource: Resource,
  facts: PlainFacts | ShowtimeFacts,
  where: Location,
  interner: Interner,
): void {
  if (facts.kind === "showtime") records.showtimes.push(showtimeEntryOf(facts, where, interner));
  else records[resource as Exclude<Resource, "showtimes">].push(plainEntryOf(facts, where, interner));
}
