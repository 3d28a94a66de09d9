/**
 * Films by where and when they show, and by name (decision: discovery, name search). With showtime
 * filters a film is listed when at least one of its showtimes matches all of them, and carries
 * `matchingShowtimes` (how many, at how many cinemas, the first one's startsAt); the list is
 * ordered by most matching showtimes, then title (as name search compares it), then id. With `q`
 * the names matching it come first by rank (whole name, starts with the query, the rest), each
 * rank in that order (or in id order without showtime filters).
 */
import { escapeJson } from "../primitives/dictionary.js";
import type { PageBuffer } from "../primitives/page-buffer.js";
import type { FreshnessFold } from "../read/freshness.js";
import type { EscapedSortKey, RecordList, Seek } from "../read/record-list.js";
import type { SnapshotLists } from "../read/snapshot.js";
import { lowerBound } from "../primitives/search.js";
import { isNearRank, NAME_MATCH_NEAR, type NameQuery, NO_MATCH, searchNames } from "./name-search.js";
import { narrowSelection, type ShowtimeSelection } from "./showtime-selection.js";
import { type Tallies, tallyShowtimes } from "./showtime-tally.js";

export interface FilmSelection {
  /** Only films having a showtime this selects; undefined: no showtime filter. */
  showtimes?: ShowtimeSelection;
  /** Only films whose title matches. */
  name?: NameQuery;
  /** Set when two filters cannot both hold. */
  nothing?: true;
}

/** Narrows a film selection by a part (parameters/parameter.ts): the showtime filters intersected, one name query. */
export function narrowFilmSelection(selection: FilmSelection, part: FilmSelection): void {
  if (part.showtimes) narrowSelection((selection.showtimes ??= {}), part.showtimes);
  if (part.name) {
    if (selection.name && selection.name.key !== part.name.key) selection.nothing = true;
    else selection.name = part.name;
  }
  if (part.nothing) selection.nothing = true;
}

/** Whether a selection asks more than the plain list: it is then composed here. */
export function isFilmDiscovery(selection: FilmSelection): boolean {
  return selection.showtimes !== undefined || selection.name !== undefined || selection.nothing === true;
}

export interface Entry {
  film: number;
  /** Name search's rank (name-search.ts); 0 without `q`. */
  rank: number;
  /** How many matching showtimes, with showtime filters (else 0). */
  count: number;
}

/** Where each part of an entry's order is packed in one number (inListOrder): place, count, rank. */
const PLACE_BITS = 2 ** 20;
const COUNT_BITS = 2 ** 24;
const RANK_BITS = 2 ** 8;

/** Each film's place in name order, and the film at each place (name-index.ts). */
export interface NameOrder {
  namePlace: Uint32Array;
  byName: Uint32Array;
}

/**
 * The list's order: rank, then (`byCount`) most showtimes, then the film's place in name order
 * (title by its name key, then id); else rank, then film index. Sorted as numbers, each entry's
 * key packed in one double (rank, count, place: 52 bits) and read back from it, several times
 * faster than comparing objects; compared as objects when a part is too large to pack.
 */
export function inListOrder(entries: Entry[], order: NameOrder, byCount: boolean): Entry[] {
  const { namePlace, byName } = order;
  const fits = (e: Entry) =>
    e.rank >= 0 && e.rank < RANK_BITS && e.count < COUNT_BITS && e.film < PLACE_BITS && namePlace[e.film]! < PLACE_BITS;
  if (!entries.every(fits)) return entries.sort((a, b) => compareEntries(a, b, namePlace, byCount));
  const keys = new Float64Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const { rank, count, film } = entries[i]!;
    keys[i] =
      (rank * COUNT_BITS + (byCount ? COUNT_BITS - 1 - count : 0)) * PLACE_BITS + (byCount ? namePlace[film]! : film);
  }
  keys.sort();
  return Array.from(keys, (key) => {
    const low = key % PLACE_BITS;
    const high = Math.floor(key / PLACE_BITS);
    const count = byCount ? COUNT_BITS - 1 - (high % COUNT_BITS) : 0;
    return { film: byCount ? byName[low]! : low, rank: Math.floor(high / COUNT_BITS), count };
  });
}

/** The list's order of two entries, as inListOrder sorts them. */
function compareEntries(a: Entry, b: Entry, namePlace: Uint32Array, byCount: boolean): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (!byCount) return a.film - b.film;
  if (a.count !== b.count) return b.count - a.count;
  return namePlace[a.film]! - namePlace[b.film]!;
}

/** Lexicographic order of two parts of a key, as strings (ids and name keys: JavaScript's order). */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class FilmDiscoveryList implements RecordList {
  readonly length: number;
  readonly envelope?: string;
  private readonly entries: Entry[];
  private readonly byName: boolean;
  private readonly byCount: boolean;

  constructor(
    private readonly lists: SnapshotLists,
    selection: FilmSelection,
  ) {
    this.byName = selection.name !== undefined;
    this.byCount = selection.showtimes !== undefined;
    const selected = selection.nothing ? [] : this.select(selection);
    this.entries = inListOrder(selected, this.lists.nameIndex("films"), this.byCount);
    this.length = this.entries.length;
    if (isNearRank(this.entries[0]?.rank)) this.envelope = NAME_MATCH_NEAR;
  }

  private tallies: Tallies | undefined;

  private select(selection: FilmSelection): Entry[] {
    const ranks = selection.name && searchNames(this.lists.nameIndex("films"), selection.name);
    const rankOf = (film: number) => (ranks ? ranks[film]! - 1 : 0);
    if (selection.showtimes) {
      const tallies = (this.tallies = tallyShowtimes(this.lists, selection.showtimes, "film"));
      const entries: Entry[] = [];
      for (const film of tallies.keys)
        if (!ranks || ranks[film] !== NO_MATCH) entries.push({ film, rank: rankOf(film), count: tallies.count[film]! });
      return entries;
    }
    const entries: Entry[] = [];
    for (let film = 0; film < ranks!.length; film++)
      if (ranks![film] !== NO_MATCH) entries.push({ film, rank: rankOf(film), count: 0 });
    return entries;
  }

  private keyOf(film: number): string {
    return this.lists.nameIndex("films").nameKey(film);
  }

  /** An entry's sort key, as a cursor carries it: [rank]? [count, name key]? id. */
  private sortKey(entry: Entry): string[] {
    const key: string[] = [];
    if (this.byName) key.push(String(entry.rank));
    if (this.byCount) key.push(String(entry.count), this.keyOf(entry.film));
    key.push(this.lists.films.ids.text(entry.film));
    return key;
  }

  /** Past the cursor's film: the first entry whose key is after it. */
  seek(seek: Seek): number {
    const after = seek.after;
    if (!after) return 0;
    return lowerBound(this.length, (i) => this.isAfter(this.sortKey(this.entries[i]!), after));
  }

  private isAfter(key: readonly string[], after: readonly string[]): boolean {
    let p = 0;
    if (this.byName) {
      const [rank, other] = [Number(key[p]), Number(after[p])];
      if (rank !== other) return rank > other;
      p++;
    }
    if (this.byCount) {
      const [count, other] = [Number(key[p]), Number(after[p])];
      if (count !== other) return count < other;
      const byKey = byText(key[p + 1]!, after[p + 1]!);
      if (byKey !== 0) return byKey > 0;
      p += 2;
    }
    return key[p]! > after[p]!;
  }

  render(start: number, end: number, out: PageBuffer, fold: FreshnessFold): EscapedSortKey | undefined {
    const { films, dictionaries } = this.lists;
    for (let i = start; i < end; i++) {
      const { film } = this.entries[i]!;
      const tallies = this.tallies;
      if (i > start) out.byte(0x2c);
      out.raw(films.records.entry(film));
      if (tallies) {
        out.length--; // before the record's closing brace
        const first = dictionaries.startsAt.text(tallies.firstStart[film]!);
        const [count, cinemas] = [tallies.count[film], tallies.cinemas[film]];
        out.text(`,"matchingShowtimes":{"count":${count},"cinemaCount":${cinemas},"firstStartsAt":"${first}"}}`);
      }
      films.foldInto(film, fold);
    }
    if (end <= start) return undefined;
    const key = this.sortKey(this.entries[end - 1]!).map(escapeJson);
    return { head: key.slice(0, -1), escapedId: key.at(-1)! };
  }
}
