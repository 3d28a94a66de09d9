/**
 * Showtimes selected by every filter at once (spec §4.2 plus the query parameters of docs/decisions.md):
 * cinema, film, a set of cinemas near a point, a time window, attributes. A page is found in
 * O(log n + page) reads: each list the filters name is sought to the page's start and its window's
 * end, then either one list is read in order, or the clusters of the cinemas near a point are
 * merged by (startsAt, id), whichever reads fewer records.
 */
import type { Seek } from "../read/record-list.js";
import type { ShowtimeList, ShowtimeStore } from "../read/showtime-store.js";
import type { SnapshotDictionaries } from "../read/snapshot-dictionaries.js";

export interface ShowtimeSelection {
  /** Only these cinemas (indexes, ascending): near a point, and/or cinemaId. Undefined: every cinema. */
  cinemas?: ArrayLike<number>;
  /** Only this film (index). */
  film?: number;
  /** Per attribute-set code: 1 when the set holds every asked attribute. Undefined: any. */
  sets?: Uint8Array;
  /** Instant key of startsAfter: only showtimes starting strictly later. */
  startsAfterKey?: string;
  /** Instant key of startsBefore: only showtimes starting strictly earlier. */
  startsBeforeKey?: string;
}

/**
 * Narrows a selection to `cinemas` (ascending indexes; -1, an unknown cinema, matches nothing),
 * intersected with any narrowing before, so filters combine with AND whatever their order.
 */
export function narrowCinemas(selection: ShowtimeSelection, cinemas: ArrayLike<number>): void {
  const wanted = Array.from(cinemas).filter((c) => c >= 0);
  const before = selection.cinemas;
  selection.cinemas = before === undefined ? wanted : wanted.filter((c) => Array.prototype.includes.call(before, c));
}

export interface SelectedPage {
  /** Record numbers (by-cinema clustering), in list order. */
  records: number[];
  /** Whether a matching showtime follows the page. */
  hasMore: boolean;
}

/** A list sought to a page's start, bounded by the window's end. */
interface Run {
  list: ShowtimeList;
  next: number;
  end: number;
}

/** Records read per call when a list is read in order. */
const BATCH = 64;
/** Decodes that seeking one list costs, roughly: what merging k lists pays up front. */
const SEEK_COST = 12;

function runOf(list: ShowtimeList, seek: Seek, endCode: number | undefined): Run {
  const next = list.seek(seek);
  const end = endCode === undefined ? list.length : Math.max(next, list.firstAtOrAfter(endCode));
  return { list, next, end };
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
  const heap: number[] = [];
  const less = (a: number, b: number) =>
    keys[a]! < keys[b]! ||
    (keys[a] === keys[b] && store.idOf("byCinema", heads[a]!) < store.idOf("byCinema", heads[b]!));
  const setHead = (i: number, run: Run) => {
    heads[i] = run.list.recordsIn(run.next, run.next + 1)[0]!;
    keys[i] = store.instantKeyOfRecord(heads[i]!);
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

/**
 * The page of `limit` showtimes past `seek` that match `selection`, and whether more follow:
 * `limit + 1` matches are looked for, never the whole list.
 */
export function selectShowtimes(
  store: ShowtimeStore,
  dictionaries: SnapshotDictionaries,
  selection: ShowtimeSelection,
  after: readonly string[] | undefined,
  limit: number,
): SelectedPage {
  const { cinemas, film, sets } = selection;
  const seek: Seek = { after, startsAfterKey: selection.startsAfterKey };
  const endCode =
    selection.startsBeforeKey === undefined ? undefined : dictionaries.firstCodeAtOrAfter(selection.startsBeforeKey);
  const want = limit + 1;
  const bySets = sets && ((record: number) => sets[store.attributeSetOf(record)] === 1);
  let found: number[];
  if (cinemas === undefined) {
    const run = runOf(film === undefined ? store.all() : store.ofFilm(film), seek, endCode);
    found = readInOrder(run, want, bySets, sets);
  } else if (cinemas.length === 0) {
    found = [];
  } else {
    found = selectAtCinemas(store, cinemas, film, seek, endCode, want, bySets, sets);
  }
  return { records: found.slice(0, limit), hasMore: found.length > limit };
}

/** Showtimes at a set of cinemas: their clusters (or cinema+film pairs) merged, or one wider list read and filtered. */
function selectAtCinemas(
  store: ShowtimeStore,
  cinemas: ArrayLike<number>,
  film: number | undefined,
  seek: Seek,
  endCode: number | undefined,
  want: number,
  bySets: ((record: number) => boolean) | undefined,
  sets: Uint8Array | undefined,
): number[] {
  const wanted = new Set(Array.from(cinemas));
  const atCinema = (record: number) => wanted.has(store.cinemaOf(record));
  const accept = bySets ? (record: number) => atCinema(record) && bySets(record) : atCinema;
  if (cinemas.length > 1) {
    // Reading the film's (or every) list in order costs about `want / share` records, where share is
    // the part of the list at these cinemas; merging their clusters costs a seek per cinema.
    const wide = runOf(film === undefined ? store.all() : store.ofFilm(film), seek, endCode);
    let atThese = 0;
    for (let i = 0; i < cinemas.length; i++) atThese += store.clusterSize(cinemas[i]!);
    const share = atThese / Math.max(1, store.count);
    const readCost = Math.min(wide.end - wide.next, want / Math.max(share, 1e-9));
    if (readCost <= cinemas.length * SEEK_COST) return readInOrder(wide, want, accept, sets);
  }
  const runs = Array.from(cinemas, (c) =>
    runOf(film === undefined ? store.ofCinema(c) : store.ofPair(c, film), seek, endCode),
  );
  // One run is read in order; several are merged by list order.
  if (runs.length === 1) return readInOrder(runs[0]!, want, bySets, sets);
  return merge(store, runs, want, bySets ?? (() => true));
}
