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
  /** Set when two filters cannot both hold: no cinema matches. */
  nothing?: true;
}

/**
 * Narrows `filters` by `part`, the only way a cinema filter selects (parameters/parameter.ts): a
 * slot given twice must agree, or nothing matches.
 */
export function narrowCinemaFilters(filters: CinemaFilters, part: CinemaFilters): void {
  for (const slot of ["near", "countryCode"] as const) {
    const value = part[slot];
    if (value === undefined) continue;
    const before = filters[slot];
    if (before !== undefined && JSON.stringify(before) !== JSON.stringify(value)) filters.nothing = true;
    else (filters as Record<typeof slot, unknown>)[slot] = value;
  }
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

/** The cinemas matching `filters`, in the order their list serves them. */
export function selectCinemas(cinemas: PlainStore, filters: CinemaFilters): CinemaMatch[] {
  const { near, countryCode } = filters;
  if (filters.nothing) return [];
  let matches: CinemaMatch[];
  if (near) {
    matches = geoIndexOf(cinemas).within(near);
    if (countryCode !== undefined) matches = matches.filter((m) => cinemas.countryCodeOf(m.index) === countryCode);
    // Indexes are in id order: equal distances are ordered by id.
    return matches.sort((a, b) => a.distanceKm - b.distanceKm || a.index - b.index);
  }
  matches = [];
  for (let i = 0; i < cinemas.length; i++) {
    if (countryCode === undefined || cinemas.countryCodeOf(i) === countryCode)
      matches.push({ index: i, distanceKm: Number.NaN });
  }
  return matches;
}

/** A selection of cinemas as a list: pages, cursors and (near a point) `distanceKm`. */
export class CinemaSelectionList implements RecordList {
  readonly length: number;

  constructor(
    private readonly cinemas: PlainStore,
    private readonly matches: CinemaMatch[],
    private readonly byDistance: boolean,
  ) {
    this.length = matches.length;
  }

  /** Past the cursor's cinema: [id], or [distance, id] near a point (the distance as the cursor wrote it). */
  seek(seek: Seek): number {
    const after = seek.after;
    if (!after) return 0;
    const ids = this.cinemas.ids;
    if (!this.byDistance) return lowerBound(this.length, (i) => ids.text(this.matches[i]!.index) > after[0]!);
    const distance = Number(after[0]);
    const id = after[1]!;
    return lowerBound(this.length, (i) => {
      const m = this.matches[i]!;
      return m.distanceKm > distance || (m.distanceKm === distance && ids.text(m.index) > id);
    });
  }

  render(start: number, end: number, out: PageBuffer, fold: FreshnessFold): EscapedSortKey | undefined {
    for (let i = start; i < end; i++) {
      const { index, distanceKm } = this.matches[i]!;
      if (i > start) out.byte(0x2c);
      out.raw(this.cinemas.records.entry(index));
      if (this.byDistance) {
        out.length--; // before the record's closing brace
        out.ascii(`,"distanceKm":${roundedKm(distanceKm)}}`);
      }
      this.cinemas.foldInto(index, fold);
    }
    if (end <= start) return undefined;
    const last = this.matches[end - 1]!;
    const escapedId = escapeJson(this.cinemas.ids.text(last.index));
    // The exact distance, as JavaScript writes it, so the next page starts exactly after this cinema.
    return this.byDistance ? { instantKey: String(last.distanceKm), escapedId } : { escapedId };
  }
}
