/**
 * A list in list order, as a page reads it: find where a page starts, then render its records.
 * Every list of every resource and view implements this, so pages are composed one way.
 */
import type { FreshnessFold } from "./freshness.js";
import type { PageBuffer } from "../primitives/page-buffer.js";

/** Where a page starts: after a cursor's record, and/or after an instant (startsAfter). */
export interface Seek {
  /**
   * The sort key of the last record already served: [instantKey, id] for showtimes, [distance, id]
   * for cinemas near a point, [id] for a plain list; discovery lists lead with more (their rank,
   * their count, a title).
   */
  after?: readonly string[];
  /** Instant key of startsAfter: only records starting strictly later. */
  startsAfterKey?: string;
}

/**
 * The sort key of a rendered record: the parts before the id, and the id, as the JSON-escaped texts a cursor
 * carries.
 */
export interface EscapedSortKey {
  head?: readonly string[];
  escapedId: string;
}

export interface RecordList {
  readonly length: number;
  /**
   * Fields its pages add to the list envelope after `pagination`, as JSON text with a leading comma:
   * `,"nameMatch":"near"` for near spellings (decision: name search).
   */
  readonly envelope?: string;
  /** The index of the first record past `seek`; O(log n) record reads. */
  seek(seek: Seek): number;
  /**
   * Writes records [start, end) as canonical JSON separated by commas, folds their freshness in,
   * and returns the last one's sort key (undefined for an empty range).
   */
  render(start: number, end: number, out: PageBuffer, fold: FreshnessFold): EscapedSortKey | undefined;
}
