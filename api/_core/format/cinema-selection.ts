/**
 * Cinemas selected by place (`near`, `radiusKm`) and country (`countryCode`): found on the resident
 * coordinates and country codes (88 kB at 5,500 cinemas), never by reading records. Near a point
 * they are ordered by distance, then id, and carry `distanceKm`; otherwise by id (list order).
 */
import { escapeJson } from "./dictionary.js";
import type { FreshnessFold } from "./freshness.js";
import type { PageBuffer } from "./page-buffer.js";
import type { PlainStore } from "./plain-store.js";
import type { EscapedSortKey, RecordList, Seek } from "./record-list.js";
import { lowerBound } from "./snapshot-dictionaries.js";

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

/** Cinemas with coordinates ordered by latitude: a place's candidates are one latitude band, found by binary search. */
export class LatitudeIndex {
  private readonly order: Uint32Array;
  private readonly latitudes: Float64Array;

  constructor(private readonly geo: Float64Array) {
    const located: number[] = [];
    for (let i = 0; i < geo.length / 2; i++)
      if (!Number.isNaN(geo[2 * i]!) && !Number.isNaN(geo[2 * i + 1]!)) located.push(i);
    located.sort((a, b) => geo[2 * a]! - geo[2 * b]! || a - b);
    this.order = Uint32Array.from(located);
    this.latitudes = Float64Array.from(located, (i) => geo[2 * i]!);
  }

  /** Cinemas within `near.radiusKm` of the point, with their distances, in no particular order. */
  within(near: Near): CinemaMatch[] {
    const span = latitudeSpan(near.radiusKm);
    // A band of latitude circles the Earth: a longitude span (wider towards the poles, none near
    // them) leaves the haversine to the cinemas really near.
    const widest = Math.abs(near.latitude) + span;
    const lonSpan = widest >= 89 ? 360 : span / Math.cos(widest * RADIANS);
    const from = lowerBound(this.latitudes.length, (k) => this.latitudes[k]! >= near.latitude - span);
    const matches: CinemaMatch[] = [];
    for (let k = from; k < this.latitudes.length && this.latitudes[k]! <= near.latitude + span; k++) {
      const i = this.order[k]!;
      const longitude = this.geo[2 * i + 1]!;
      const dLon = Math.abs(longitude - near.longitude);
      if (Math.min(dLon, 360 - dLon) > lonSpan) continue;
      const distanceKm = haversineKm(near.latitude, near.longitude, this.geo[2 * i]!, longitude);
      if (distanceKm <= near.radiusKm) matches.push({ index: i, distanceKm });
    }
    return matches;
  }
}

/** The latitude index of a store, made on first use and kept with it. */
const indexes = new WeakMap<PlainStore, LatitudeIndex>();

function latitudeIndexOf(cinemas: PlainStore): LatitudeIndex {
  let index = indexes.get(cinemas);
  if (!index) indexes.set(cinemas, (index = new LatitudeIndex(cinemas.geoTable())));
  return index;
}

/** Indexes of the cinemas within `near.radiusKm` of the point, ascending. */
export function cinemasNear(cinemas: PlainStore, near: Near): Uint32Array {
  const matches = latitudeIndexOf(cinemas).within(near);
  return Uint32Array.from(matches, (m) => m.index).sort();
}

/** The cinemas matching `filters`, in the order their list serves them. */
export function selectCinemas(cinemas: PlainStore, filters: CinemaFilters): CinemaMatch[] {
  const { near, countryCode } = filters;
  let matches: CinemaMatch[];
  if (near) {
    matches = latitudeIndexOf(cinemas).within(near);
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
        out.ascii(`,"distanceKm":${Math.round(distanceKm * 1000) / 1000}}`);
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
