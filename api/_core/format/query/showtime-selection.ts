/**
 * Showtimes selected by every filter at once (spec §4.2 plus the query parameters of docs/decisions.md):
 * cinema, film, a set of cinemas near a point, a time window, attributes. A page is found in
 * O(log n + page) reads: each list the filters name is sought to the page's start and its window's
 * end, then either one list is read in order, or the clusters of the cinemas near a point are
 * merged by (startsAt, id), whichever reads fewer records.
 */
import type { Seek } from "../read/record-list.js";
import type { ShowtimeList, ShowtimeStore } from "../read/showtime-store.js";
import type { SnapshotLists } from "../read/snapshot.js";
import { LocalDay } from "./local-day.js";

export interface ShowtimeSelection {
  /** Only these cinemas (indexes, ascending): near a point, and/or cinemaId. Undefined: every cinema; empty: none. */
  cinemas?: ArrayLike<number>;
  /** Only this film (index). */
  film?: number;
  /** Per attribute-set code: 1 when the set holds every asked attribute. Undefined: any. */
  sets?: Uint8Array;
  /** Instant key of startsAfter: only showtimes starting strictly later. */
  startsAfterKey?: string;
  /** Instant key of startsBefore: only showtimes starting strictly earlier. */
  startsBeforeKey?: string;
  /** Only showtimes on this local date at their cinema (date), YYYY-MM-DD. */
  date?: string;
  /** Minutes after midnight the local day starts (dayStartsAt); 0 when absent. */
  dayStartMinutes?: number;
  /** Near a point: each selected cinema's distance in km, which its showtimes carry. */
  distances?: Map<number, number>;
}

/** The selection of nothing at all (an unknown id, two filters that cannot both hold). */
const NOTHING: ArrayLike<number> = [];

function intersect(before: ArrayLike<number> | undefined, wanted: ArrayLike<number>): number[] {
  const kept = Array.from(wanted).filter((c) => c >= 0);
  return before === undefined ? kept : kept.filter((c) => Array.prototype.includes.call(before, c));
}

/** Two values of a slot that must be equal to both hold: the value, or undefined when they differ. */
function agreed<T>(before: T | undefined, part: T): T | undefined {
  return before === undefined || before === part ? part : undefined;
}

/**
 * Narrows `selection` by `part`, the only way a filter selects (parameters/parameter.ts): every
 * slot is intersected, so filters combine with AND whatever their order and no filter can widen
 * or replace what another selected. A cinema index of -1 (an unknown cinema) matches nothing.
 */
export function narrowSelection(selection: ShowtimeSelection, part: ShowtimeSelection): void {
  if (part.cinemas !== undefined) selection.cinemas = intersect(selection.cinemas, part.cinemas);
  if (part.film !== undefined) {
    const film = agreed(selection.film, part.film);
    if (film === undefined || film < 0) selection.cinemas = NOTHING;
    else selection.film = film;
  }
  if (part.sets !== undefined) {
    const held = selection.sets;
    selection.sets = held === undefined ? part.sets : part.sets.map((holds, code) => holds & (held[code] ?? 0));
  }
  // The later start and the earlier end: instant keys order as strings.
  const after = part.startsAfterKey;
  if (after !== undefined && (selection.startsAfterKey === undefined || after > selection.startsAfterKey))
    selection.startsAfterKey = after;
  const before = part.startsBeforeKey;
  if (before !== undefined && (selection.startsBeforeKey === undefined || before < selection.startsBeforeKey))
    selection.startsBeforeKey = before;
  for (const slot of ["date", "dayStartMinutes"] as const) {
    if (part[slot] === undefined) continue;
    const value = agreed<string | number>(selection[slot], part[slot]);
    if (value === undefined) selection.cinemas = NOTHING;
    else (selection as Record<typeof slot, unknown>)[slot] = value;
  }
  if (part.distances !== undefined) {
    const known = selection.distances;
    selection.distances = known === undefined ? part.distances : new Map([...known, ...part.distances]);
  }
}

export interface SelectedPage {
  /** Record numbers (by-cinema clustering), in list order. */
  records: number[];
  /** Whether a matching showtime follows the page. */
  hasMore: boolean;
}

/** A list sought to a page's start, bounded by the window's end. */
export interface Run {
  list: ShowtimeList;
  next: number;
  end: number;
}

/** Records read per call when a list is read in order. */
const BATCH = 64;
/** Decodes that seeking one list costs, roughly: what merging k lists pays up front. */
const SEEK_COST = 12;

/** Start-time code bounds of a run: from `from` (inclusive) to `to` (exclusive), either open. */
export interface Bounds {
  from?: number;
  to?: number;
}

export function runOf(list: ShowtimeList, seek: Seek, bounds: Bounds): Run {
  let next = list.seek(seek);
  if (bounds.from !== undefined) next = Math.max(next, list.firstAtOrAfter(bounds.from));
  const end = bounds.to === undefined ? list.length : Math.max(next, list.firstAtOrAfter(bounds.to));
  return { list, next, end };
}

/** Both bounds at once: the later start, the earlier end. */
export function narrowed(bounds: Bounds, [from, to]: [number, number]): Bounds {
  return {
    from: bounds.from === undefined ? from : Math.max(bounds.from, from),
    to: bounds.to === undefined ? to : Math.min(bounds.to, to),
  };
}

/** Joins record filters: undefined keeps every record. */
function both(
  a: ((record: number) => boolean) | undefined,
  b: ((record: number) => boolean) | undefined,
): ((record: number) => boolean) | undefined {
  return a && b ? (record) => a(record) && b(record) : (a ?? b);
}

/**
 * Reads one list in order, keeping the records every filter accepts, until `want` are found. With
 * an attribute filter, chunks whose summary holds none of the matching sets are skipped unread.
 */
function readInOrder(
  run: Run,
  want: number,
  accept: ((record: number) => boolean) | undefined,
  sets?: Uint8Array,
): number[] {
  // Nothing to filter: the page is the next `want` positions, read at once.
  if (!accept) return Array.from(run.list.recordsIn(run.next, Math.min(run.end, run.next + want)));
  const found: number[] = [];
  while (run.next < run.end && found.length < want) {
    if (sets) {
      run.next = run.list.skipChunks(run.next, run.end, sets);
      if (run.next >= run.end) break;
    }
    const stop = Math.min(run.end, sets ? run.list.chunkEnd(run.next) : run.next + BATCH);
    const records = run.list.recordsIn(run.next, stop);
    for (let i = 0; i < records.length && found.length < want; i++) {
      run.next++;
      if (accept(records[i]!)) found.push(records[i]!);
    }
  }
  return found;
}

/** Merges runs by list order (a binary heap on each run's next record), keeping accepted records. */
function merge(store: ShowtimeStore, runs: Run[], want: number, accept: (record: number) => boolean): number[] {
  const heads: number[] = [];
  // Each head's instant key, read once when it becomes the head (a comparison decodes nothing
  // more, but an id on a tie).
  const keys: string[] = [];
  // Each head's id, read on its first tie (one instant at many cinemas is common).
  const ids: Array<string | undefined> = [];
  const idOf = (i: number) => (ids[i] ??= store.idOf("byCinema", heads[i]!));
  const heap: number[] = [];
  const less = (a: number, b: number) => keys[a]! < keys[b]! || (keys[a] === keys[b] && idOf(a) < idOf(b));
  const setHead = (i: number, run: Run) => {
    heads[i] = run.list.recordsIn(run.next, run.next + 1)[0]!;
    keys[i] = store.instantKeyOfRecord(heads[i]!);
    ids[i] = undefined;
  };
  const siftDown = (at: number) => {
    for (;;) {
      const [l, r] = [2 * at + 1, 2 * at + 2];
      let min = at;
      if (l < heap.length && less(heap[l]!, heap[min]!)) min = l;
      if (r < heap.length && less(heap[r]!, heap[min]!)) min = r;
      if (min === at) return;
      [heap[at], heap[min]] = [heap[min]!, heap[at]!];
      at = min;
    }
  };
  const siftUp = (at: number) => {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!less(heap[at]!, heap[parent]!)) return;
      [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
      at = parent;
    }
  };
  runs.forEach((run, i) => {
    if (run.next >= run.end) return;
    setHead(i, run);
    heap.push(i);
    siftUp(heap.length - 1);
  });
  const found: number[] = [];
  while (heap.length > 0 && found.length < want) {
    const i = heap[0]!;
    const run = runs[i]!;
    if (accept(heads[i]!)) found.push(heads[i]!);
    run.next++;
    if (run.next < run.end) {
      setHead(i, run);
    } else {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    if (heap.length > 0) siftDown(0);
  }
  return found;
}

/** What one request's page is chosen by: the filters that hold for every run. */
interface Plan {
  store: ShowtimeStore;
  seek: Seek;
  /** The window every run keeps to (startsBefore). */
  bounds: Bounds;
  want: number;
  sets?: Uint8Array;
  bySets?: (record: number) => boolean;
  day?: LocalDay;
  film?: number;
}

/**
 * The page of `limit` showtimes past `after` that match `selection`, and whether more follow:
 * `limit + 1` matches are looked for, never the whole list.
 */
export function selectShowtimes(
  lists: SnapshotLists,
  selection: ShowtimeSelection,
  after: readonly string[] | undefined,
  limit: number,
): SelectedPage {
  const { showtimes: store, dictionaries } = lists;
  const { cinemas, sets } = selection;
  const plan: Plan = {
    store,
    seek: { after, startsAfterKey: selection.startsAfterKey },
    bounds:
      selection.startsBeforeKey === undefined ? {} : { to: dictionaries.firstCodeAtOrAfter(selection.startsBeforeKey) },
    want: limit + 1,
    sets,
    bySets: sets && ((record: number) => sets[store.attributeSetOf(record)] === 1),
    day:
      selection.date === undefined
        ? undefined
        : new LocalDay(lists.zones, dictionaries, {
            date: selection.date,
            startMinutes: selection.dayStartMinutes ?? 0,
          }),
    film: selection.film,
  };
  let found: number[];
  if (cinemas === undefined) found = readWide(plan, undefined);
  else if (cinemas.length === 0) found = [];
  else found = selectAtCinemas(plan, cinemas);
  return { records: found.slice(0, limit), hasMore: found.length > limit };
}

/** The film's (or every) list read in order, kept to the day and to `atCinema` when given. */
function readWide(
  plan: Plan,
  cinemas: ArrayLike<number> | undefined,
  atCinema?: (record: number) => boolean,
): number[] {
  const { store, day } = plan;
  if (day && plan.film === undefined) return readDayByZone(plan, day, cinemas, atCinema);
  const list = plan.film === undefined ? store.all() : store.ofFilm(plan.film);
  const bounds = day ? narrowed(plan.bounds, day.codesAtAny(cinemas)) : plan.bounds;
  const onDay = day && ((record: number) => day.holds(store.cinemaOf(record), store.startsAtOf("byCinema", record)));
  const accept = both(both(atCinema, onDay), plan.bySets);
  return readInOrder(runOf(list, plan.seek, bounds), plan.want, accept, plan.sets);
}

/**
 * A local day across many cinemas, from the lists by zone: a zone's day is one window of its list,
 * so the windows are merged and nothing outside them is read (reading every list instead walks
 * through the western zones' evening before, all of it off the day). Only cinemas without a zone
 * have their records checked.
 */
function readDayByZone(
  plan: Plan,
  day: LocalDay,
  cinemas: ArrayLike<number> | undefined,
  atCinema?: (record: number) => boolean,
): number[] {
  const { store } = plan;
  const keys = day.zoneKeysOf(cinemas);
  const runs = keys
    .map((k) => runOf(store.ofZone(k), plan.seek, narrowed(plan.bounds, day.codesInZoneKey(k))))
    .filter((run) => run.next < run.end);
  const onDay = keys.includes(0)
    ? (record: number) => {
        const c = store.cinemaOf(record);
        return day.isExactAt(c) || day.holds(c, store.startsAtOf("byCinema", record));
      }
    : undefined;
  const accept = both(both(atCinema, onDay), plan.bySets);
  if (runs.length === 1) return readInOrder(runs[0]!, plan.want, accept);
  return merge(store, runs, plan.want, accept ?? (() => true));
}

/** Showtimes at a set of cinemas: their clusters (or cinema+film pairs) merged, or one wider list read and filtered. */
function selectAtCinemas(plan: Plan, cinemas: ArrayLike<number>): number[] {
  const { store, day, film } = plan;
  if (cinemas.length > 1) {
    // Reading the film's (or every) list in order costs about `want / share` records, where share is
    // the part of the list at these cinemas; merging their clusters costs a seek per cinema.
    const wanted = new Set(Array.from(cinemas));
    let atThese = 0;
    for (let i = 0; i < cinemas.length; i++) atThese += store.clusterSize(cinemas[i]!);
    const share = atThese / Math.max(1, store.count);
    const wide = runOf(film === undefined ? store.all() : store.ofFilm(film), plan.seek, plan.bounds);
    const readCost = Math.min(wide.end - wide.next, plan.want / Math.max(share, 1e-9));
    if (readCost <= cinemas.length * SEEK_COST)
      return readWide(plan, cinemas, (record) => wanted.has(store.cinemaOf(record)));
  }
  const runs = Array.from(cinemas, (c) => {
    const list = film === undefined ? store.ofCinema(c) : store.ofPair(c, film);
    return runOf(list, plan.seek, day ? narrowed(plan.bounds, day.codesAt(c)) : plan.bounds);
  });
  // A cinema with a zone has its day exactly in its window; one without has its records checked.
  const allExact = !day || Array.from(cinemas).every((c) => day.isExactAt(c));
  const onDay = allExact
    ? undefined
    : (record: number) => day!.holds(store.cinemaOf(record), store.startsAtOf("byCinema", record));
  const accept = both(onDay, plan.bySets);
  // One run is read in order; several are merged by list order.
  if (runs.length === 1) return readInOrder(runs[0]!, plan.want, accept, plan.sets);
  return merge(store, runs, plan.want, accept ?? (() => true));
}
