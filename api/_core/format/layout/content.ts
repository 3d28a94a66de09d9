/**
 * What the build hands the snapshot writer: every record, validated, linked and in list order
 * (spec ordering decisions: showtimes by startsAt as an instant then id; the rest by id).
 */
import type { ShowtimeValues } from "./showtime-fields.js";

/** A date-time as written in the source, with its instant key (date-time.ts), which orders instants. */
export interface TimeText {
  text: string;
  key: string;
}

/** A cinema, film or attribute: its canonical JSON and what lists and lookups need of it. */
export interface PlainRecord {
  id: string;
  /** The record's canonical JSON (the schema's field order), as every response carries it. */
  json: Uint8Array;
  observed?: TimeText;
  updated?: TimeText;
  /** Cinemas: location.latitude / longitude and countryCode (for "near me" and country lists). */
  latitude?: number;
  longitude?: number;
  countryCode?: string;
  /** Cinemas: the IANA zone (as given, or derived by the build), or undefined. */
  timeZone?: string;
}

/**
 * A showtime, value by value as the source gave it, typed from its shape table (showtime-fields.ts):
 * date-times with their instant keys, attribute lists shared, the provenance object's fields by their
 * own names; its references all resolve (the build's link stage).
 */
export type ShowtimeRecord = ShowtimeValues<{ dateTime: TimeText; idList: readonly string[]; other: string }>;

/**
 * The time zones of the snapshot's cinemas (decision: time zones), with each zone's UTC offsets
 * over the epoch seconds [from, to] the showtimes span (with a margin): the offset in force at
 * `from`, then every change. The server computes local days from these alone.
 */
export interface ZoneTable {
  from: number;
  to: number;
  /** Ascending by name. */
  zones: Array<{ name: string; initial: number; changes: Array<[at: number, offset: number]> }>;
}

/** Every record, each list in list order. */
export interface SnapshotContent {
  cinemas: readonly PlainRecord[];
  films: readonly PlainRecord[];
  attributes: readonly PlainRecord[];
  /** In list order. */
  showtimes: readonly ShowtimeRecord[];
  zones: ZoneTable;
}
