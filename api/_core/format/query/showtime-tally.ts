/**
 * Showtimes counted instead of listed (decision: discovery): for every film (or cinema) having a
 * showtime that a selection holds, how many it has, at how many cinemas, and its first one in list
 * order. The filters mean exactly what they mean for /v1/showtimes. A local day with no other time
 * or attribute filter is read from the snapshot's films per day (read/showtime-days.ts): a row per
 * film a cinema shows that day, not a record per showtime; anything else reads each selected
 * cinema's showtimes in its window, one decode each.
 */
import { epochDayOf } from "../primitives/date-time.js";
import { SnapshotError } from "../primitives/errors.js";
import { RECORDS_FILE } from "../primitives/files.js";
import type { SnapshotLists } from "../read/snapshot.js";
import { LocalDay } from "./local-day.js";
import { type Bounds, narrowed, runOf, type ShowtimeSelection } from "./showtime-selection.js";

export type TallyBy = "film" | "cinema";

/** Whether a selection is one the films per day answer: a local day (or none), nothing finer. */
function isByDay(selection: ShowtimeSelection): boolean {
  return (
    selection.startsAfterKey === undefined &&
    selection.startsBeforeKey === undefined &&
    selection.sets === undefined &&
    (selection.dayStartMinutes ?? 0) === 0
  );
}

/**
 * Every film's (or cinema's) tally, in typed arrays indexed by film (cinema): how many matching
 * showtimes, at how many cinemas, and the first one in list order (its record and start-time code).
 */
export class Tallies {
  readonly count: Int32Array;
  readonly cinemas: Int32Array;
  readonly first: Int32Array;
  readonly firstStart: Int32Array;
  /** The cinema last counted, so each cinema counts once. */
  private readonly lastCinema: Int32Array;
  /** The films (cinemas) counted, in the order first met. */
  readonly keys: number[] = [];

  constructor(
    private readonly lists: SnapshotLists,
    size: number,
  ) {
    this.count = new Int32Array(size);
    this.cinemas = new Int32Array(size);
    this.first = new Int32Array(size);
    this.firstStart = new Int32Array(size);
    this.lastCinema = new Int32Array(size).fill(-1);
  }

  has(key: number): boolean {
    return this.count[key]! > 0;
  }

  add(key: number, cinema: number, count: number, first: number, firstStart: number): void {
    if (this.count[key] === 0) {
      this.keys.push(key);
      this.first[key] = first;
      this.firstStart[key] = firstStart;
    } else if (this.isBefore(firstStart, first, this.firstStart[key]!, this.first[key]!)) {
      this.first[key] = first;
      this.firstStart[key] = firstStart;
    }
    this.count[key]! += count;
    if (this.lastCinema[key] !== cinema) {
      this.cinemas[key]!++;
      this.lastCinema[key] = cinema;
    }
  }

  /**
   * List order (decision: ordering): by instant, then id. Only the first's startsAt text is shown,
   * and one code is one text, so ids are compared only for one instant written two ways (two codes).
   */
  private isBefore(code: number, record: number, knownCode: number, knownRecord: number): boolean {
    if (code === knownCode) return false;
    const { dictionaries, showtimes } = this.lists;
    const [key, knownKey] = [dictionaries.instantKeyOf(code), dictionaries.instantKeyOf(knownCode)];
    if (key !== knownKey) return key < knownKey;
    return showtimes.idOf("byCinema", record) < showtimes.idOf("byCinema", knownRecord);
  }
}

/** Every film's (or cinema's) tally of the showtimes `selection` holds at `cinemas` (every cinema when undefined). */
export function tallyShowtimes(lists: SnapshotLists, selection: ShowtimeSelection, by: TallyBy): Tallies {
  const tallies = new Tallies(lists, by === "film" ? lists.films.length : lists.cinemas.length);
  const cinemas = selection.cinemas ?? { length: lists.cinemas.length };
  const at = (i: number) => (selection.cinemas ? selection.cinemas[i]! : i);
  if (isByDay(selection)) {
    const days = lists.days;
    const day = selection.date === undefined ? undefined : epochDayOf(selection.date);
    const { film: films, count, first, firstStart } = days;
    const only = selection.film;
    for (let i = 0; i < cinemas.length; i++) {
      const c = at(i);
      const [start, end] = day === undefined ? days.rowsOf(c) : days.rowsOn(c, day);
      for (let row = start; row < end; row++) {
        const film = films[row]!;
        if (only !== undefined && film !== only) continue;
        tallies.add(by === "film" ? film : c, c, count[row]!, first[row]!, firstStart[row]!);
      }
    }
    return tallies;
  }
  const { showtimes: store, dictionaries } = lists;
  const bounds: Bounds =
    selection.startsBeforeKey === undefined ? {} : { to: dictionaries.firstCodeAtOrAfter(selection.startsBeforeKey) };
  const day =
    selection.date === undefined
      ? undefined
      : new LocalDay(lists.zones, dictionaries, { date: selection.date, startMinutes: selection.dayStartMinutes ?? 0 });
  const { sets } = selection;
  const films = lists.films.length;
  for (let i = 0; i < cinemas.length; i++) {
    const c = at(i);
    const list = selection.film === undefined ? store.ofCinema(c) : store.ofPair(c, selection.film);
    const run = runOf(
      list,
      { startsAfterKey: selection.startsAfterKey },
      day ? narrowed(bounds, day.codesAt(c)) : bounds,
    );
    if (run.next >= run.end) continue;
    const exact = !day || day.isExactAt(c);
    store.visitCodes(list.recordsIn(run.next, run.end), (record, film, startsAt, set) => {
      if (film >= films) throw new SnapshotError(RECORDS_FILE, "a showtime names a film that does not exist");
      if (sets && sets[set] !== 1) return;
      if (!exact && !day!.holds(c, startsAt)) return;
      tallies.add(by === "film" ? film : c, c, 1, record, startsAt);
    });
  }
  return tallies;
}
