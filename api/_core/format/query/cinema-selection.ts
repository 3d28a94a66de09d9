/**
 * Cinemas selected by place (`near`, `radiusKm`) and country (`countryCode`): found on the resident
 * coordinates and country codes (88 kB at 5,500 cinemas), never by reading records. Near a point
 * they are ordered by distance, then id, and carry `distanceKm`; otherwise by id (list order).
 */
import { escapeJson } from "../primitives/dictionary.js";
import type { FreshnessFold } from "../read/freshness.js";
import type { PageBuffer } from "../primitives/page-buffer.js";
import type { PlainStore } from "../read/plain-store.js";
import type { EscapedSortKey, RecordList, Seek } from "../read/record-list.js";
import { lowerBound } from "../primitives/search.js";
import type { SnapshotLists } from "../read/snapshot.js";
import {
  isNearRank,
  matchNames,
  NAME_MATCH_NEAR,
  type NameMatches,
  type NameQuery,
  NO_MATCH,
  searchNames,
} from "./name-search.js";
import { narrowSelection, type ShowtimeSelection } from "./showtime-selection.js";
import { tallyShowtimes } from "./showtime-tally.js";

/** The mean Earth radius (IUGG), the sphere the API's distances are measured on. */
export const EARTH_RADIUS_KM = 6371.0088;
const RADIANS = Math.PI / 180;

export interface Near {
  latitude: number;
  longitude: number;
  radiusKm: number;
}

export interface CinemaFilters {
  near?: Near;
  countryCode?: string;
  chainId?: string;
  /** Only cinemas whose name or locality matches. */
  name?: NameQuery;
  /** Only cinemas having a showtime this selects (decision: discovery). */
  showtimes?: ShowtimeSelection;
  /** Set when two filters cannot both hold: no cinema matches. */
  nothing?: true;
}

/**
 * Narrows `filters` by `part`, the only way a cinema filter selects (parameters/parameter.ts): a
 * slot given twice must agree, or nothing matches; showtime filters are intersected.
 */
export function narrowCinemaFilters(filters: CinemaFilters, part: CinemaFilters): void {
  for (const slot of ["near", "countryCode", "chainId", "name"] as const) {
    const value = part[slot];
    if (value === undefined) continue;
    const before = filters[slot];
    if (before !== undefined && JSON.stringify(before) !== JSON.stringify(value)) filters.nothing = true;
    else (filters as Record<typeof slot, unknown>)[slot] = value;
  }
  if (part.showtimes) narrowSelection((filters.showtimes ??= {}), part.showtimes);
  if (part.nothing) filters.nothing = true;
}

/** A distance as responses show it: km rounded to 3 decimals (decision: query parameters). */
export function roundedKm(distanceKm: number): number {
  return Math.round(distanceKm * 1000) / 1000;
}

/** Great-circle distance by the haversine formula, in km. */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RADIANS;
  const dLon = (lon2 - lon1) * RADIANS;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Latitude degrees a radius spans, with a margin: a cheap test that rejects most cinemas before the haversine. */
function latitudeSpan(radiusKm: number): number {
  return (radiusKm / (EARTH_RADIUS_KM * RADIANS)) * 1.001 + 1e-9;
}

export interface CinemaMatch {
  index: number;
  /** NaN when the selection is not by place. */
  distanceKm: number;
  /** Name search's rank (name-search.ts); 0 without `q`. */
  rank?: number;
  /** Its matching showtimes, with showtime filters: how many, the first one's start-time code. */
  matching?: { count: number; firstStart: number };
}

/** Degrees per side of a grid cell: a 25 km radius looks at 4 cells or so. */
const CELL_DEGREES = 0.5;
const LON_CELLS = 360 / CELL_DEGREES;

/**
 * Cinemas with coordinates in a grid of CELL_DEGREES cells: a place's candidates are the cells its
 * radius can reach, then the haversine decides. Made once per snapshot, on first use.
 */
export class GeoIndex {
  private readonly cells = new Map<number, Uint32Array>();

  constructor(private readonly geo: Float64Array) {
    const lists = new Map<number, number[]>();
    for (let i = 0; i < geo.length / 2; i++) {
      const [latitude, longitude] = [geo[2 * i]!, geo[2 * i + 1]!];
      if (Number.isNaN(latitude) || Number.isNaN(longitude)) continue;
      const cell = this.cellOf(latitude, longitude);
      let list = lists.get(cell);
      if (!list) lists.set(cell, (list = []));
      list.push(i);
    }
    for (const [cell, list] of lists) this.cells.set(cell, Uint32Array.from(list));
  }

  private cellOf(latitude: number, longitude: number): number {
    const row = Math.min(Math.floor((latitude + 90) / CELL_DEGREES), 180 / CELL_DEGREES - 1);
    const column = Math.floor(((((longitude + 180) % 360) + 360) % 360) / CELL_DEGREES) % LON_CELLS;
    return row * LON_CELLS + column;
  }

  /** Cinemas within `near.radiusKm` of the point, with their distances, in no particular order. */
  within(near: Near): CinemaMatch[] {
    const span = latitudeSpan(near.radiusKm);
    // Wider in longitude towards the poles; every column near them.
    const widest = Math.abs(near.latitude) + span;
    const lonSpan = widest >= 89 ? 180 : Math.min(180, span / Math.cos(widest * RADIANS));
    const rowFrom = Math.max(0, Math.floor((near.latitude - span + 90) / CELL_DEGREES));
    const rowTo = Math.min(180 / CELL_DEGREES - 1, Math.floor((near.latitude + span + 90) / CELL_DEGREES));
    const columns = Math.min(LON_CELLS, Math.ceil((2 * lonSpan) / CELL_DEGREES) + 2);
    const firstColumn = Math.floor(((((near.longitude - lonSpan + 180) % 360) + 360) % 360) / CELL_DEGREES);
    const matches: CinemaMatch[] = [];
    for (let row = rowFrom; row <= rowTo; row++) {
      for (let k = 0; k < columns; k++) {
        const list = this.cells.get(row * LON_CELLS + ((firstColumn + k) % LON_CELLS));
        if (!list) continue;
        for (let j = 0; j < list.length; j++) {
          const i = list[j]!;
          const distanceKm = haversineKm(near.latitude, near.longitude, this.geo[2 * i]!, this.geo[2 * i + 1]!);
          if (distanceKm <= near.radiusKm) matches.push({ index: i, distanceKm });
        }
      }
    }
    return matches;
  }
}

/** The geo index of a store, made on first use and kept with it. */
const indexes = new WeakMap<PlainStore, GeoIndex>();

function geoIndexOf(cinemas: PlainStore): GeoIndex {
  let index = indexes.get(cinemas);
  if (!index) indexes.set(cinemas, (index = new GeoIndex(cinemas.geoTable())));
  return index;
}

/** The cinemas within `near.radiusKm` of the point, with their distances, ascending by index. */
export function cinemasNear(cinemas: PlainStore, near: Near): CinemaMatch[] {
  return geoIndexOf(cinemas)
    .within(near)
    .sort((a, b) => a.index - b.index);
}

/**
 * The cinemas matching `filters`, in the order their list serves them: by name search's rank with
 * `q`, then nearest first near a point, then by id. The candidates are the fewest a filter gives
 * (a place, the names matching, or every cinema); the others are checked on them.
 */
export function selectCinemas(lists: SnapshotLists, filters: CinemaFilters): CinemaMatch[] {
  if (filters.nothing) return [];
  const { cinemas } = lists;
  const { name, near } = filters;
  let matches: CinemaMatch[] = [];
  if (near) matches = name ? rankedByName(lists, name, cinemasNear(cinemas, near)) : cinemasNear(cinemas, near);
  else if (name) matches = namedMatches(matchNames(lists.nameIndex("cinemas"), name));
  else for (let i = 0; i < cinemas.length; i++) matches.push({ index: i, distanceKm: Number.NaN });
  const { countryCode, chainId } = filters;
  if (countryCode !== undefined) matches = matches.filter((m) => cinemas.countryCodeOf(m.index) === countryCode);
  if (chainId !== undefined) {
    const ofChain = new Set(lists.chains.cinemasOf(chainId));
    matches = matches.filter((m) => ofChain.has(m.index));
  }
  if (filters.showtimes) matches = withShowtimes(lists, filters.showtimes, matches);
  // Away from a point they are in order already (filters keep it): by index, or by rank then index.
  if (!near) return matches;
  // Indexes are in id order: equal distances (and ranks) are ordered by id.
  return matches.sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0) || a.distanceKm - b.distanceKm || a.index - b.index);
}

/**
 * The cinemas a name search finds, with their ranks, in the list's order: by rank, then id (index
 * order). Sorted as numbers, rank and index in one (a typed array's sort, several times faster than
 * comparing objects). The work is the cinemas found, not all of them (a misspelt name finds a few
 * hundred of 5,500).
 */
export function namedMatches({ records, ranks }: NameMatches): CinemaMatch[] {
  const matches: CinemaMatch[] = [];
  // A rank is below 256: with indexes below 2^24 the key fits 32 bits, else a double (below 2^40).
  const span = records.some((index) => index >= 2 ** 24) ? 2 ** 32 : 2 ** 24;
  const keys = span > 2 ** 24 ? new Float64Array(records.length) : new Uint32Array(records.length);
  for (let k = 0; k < records.length; k++) keys[k] = (ranks[k]! - 1) * span + records[k]!;
  keys.sort();
  for (const key of keys)
    if (span > 2 ** 24) matches.push({ index: key % span, distanceKm: Number.NaN, rank: Math.floor(key / span) });
    else matches.push({ index: key & 0xffffff, distanceKm: Number.NaN, rank: key >>> 24 });
  return matches;
}

/** The cinemas of `matches` whose name or locality `name` finds, each with its rank. */
function rankedByName(lists: SnapshotLists, name: NameQuery, matches: CinemaMatch[]): CinemaMatch[] {
  const ranks = searchNames(lists.nameIndex("cinemas"), name);
  return matches.filter((m) => ranks[m.index] !== NO_MATCH && (m.rank = ranks[m.index]! - 1) >= 0);
}

/** The matches having a showtime `selection` holds, each with the tally of those. */
function withShowtimes(lists: SnapshotLists, selection: ShowtimeSelection, matches: CinemaMatch[]): CinemaMatch[] {
  const at = selection.cinemas;
  const candidates = matches.map((m) => m.index).sort((a, b) => a - b);
  const cinemas = at === undefined ? candidates : candidates.filter((c) => Array.prototype.includes.call(at, c));
  const tallies = tallyShowtimes(lists, { ...selection, cinemas }, "cinema");
  return matches.filter((m) => {
    if (!tallies.has(m.index)) return false;
    m.matching = { count: tallies.count[m.index]!, firstStart: tallies.firstStart[m.index]! };
    return true;
  });
}

/**
 * A selection of cinemas as a list: pages, cursors, `distanceKm` near a point, `matchingShowtimes` with showtime
 * filters.
 */
export class CinemaSelectionList implements RecordList {
  readonly length: number;
  readonly envelope?: string;
  private readonly byName: boolean;
  private readonly byDistance: boolean;

  constructor(
    private readonly lists: SnapshotLists,
    private readonly matches: CinemaMatch[],
    filters: CinemaFilters,
  ) {
    this.length = matches.length;
    if (isNearRank(matches[0]?.rank)) this.envelope = NAME_MATCH_NEAR;
    this.byName = filters.name !== undefined;
    this.byDistance = filters.near !== undefined;
  }

  /**
   * Past the cursor's cinema: its key is [rank]? [distance]? id (the distance as the cursor wrote
   * it, exact, so the next page starts exactly after the cinema even when two round alike).
   */
  seek(seek: Seek): number {
    const after = seek.after;
    if (!after) return 0;
    const ids = this.lists.cinemas.ids;
    return lowerBound(this.length, (i) => {
      const m = this.matches[i]!;
      let p = 0;
      if (this.byName) {
        const rank = Number(after[p++]);
        if (m.rank !== rank) return m.rank! > rank;
      }
      if (this.byDistance) {
        const distance = Number(after[p++]);
        if (m.distanceKm !== distance) return m.distanceKm > distance;
      }
      return ids.text(m.index) > after[p]!;
    });
  }

  render(start: number, end: number, out: PageBuffer, fold: FreshnessFold): EscapedSortKey | undefined {
    const { cinemas, dictionaries } = this.lists;
    for (let i = start; i < end; i++) {
      const { index, distanceKm, matching: tally } = this.matches[i]!;
      if (i > start) out.byte(0x2c);
      out.raw(cinemas.records.entry(index));
      if (this.byDistance || tally) out.length--; // before the record's closing brace
      if (this.byDistance) out.ascii(`,"distanceKm":${roundedKm(distanceKm)}`);
      if (tally) {
        const first = dictionaries.startsAt.text(tally.firstStart);
        out.text(`,"matchingShowtimes":{"count":${tally.count},"firstStartsAt":"${first}"}`);
      }
      if (this.byDistance || tally) out.byte(0x7d);
      cinemas.foldInto(index, fold);
    }
    if (end <= start) return undefined;
    const last = this.matches[end - 1]!;
    const head: string[] = [];
    if (this.byName) head.push(String(last.rank));
    // The exact distance, as JavaScript writes it, so the next page starts exactly after this cinema.
    if (this.byDistance) head.push(String(last.distanceKm));
    return { head, escapedId: escapeJson(cinemas.ids.text(last.index)) };
  }
}
