/**
 * Response bodies, byte for byte, for the build (stored pages) and the request core (every other
 * page) alike: the spec's list envelope (§4.1) around records the snapshot renders, with the
 * next page's cursor and the page's freshness.
 */
import { encodeCursorEscaped } from "../tokens/cursor.js";
import { FreshnessFold } from "../format/read/freshness.js";
import type { Freshness } from "../format/layout/manifest.js";
import { PageBuffer } from "../format/primitives/page-buffer.js";
import type { EscapedSortKey, RecordList, Seek } from "../format/read/record-list.js";
import type { SnapshotLists } from "../format/read/snapshot.js";
import { selectShowtimes, type ShowtimeSelection } from "../format/query/showtime-selection.js";
import type { Embedded } from "../endpoints/parameters/query-values.js";
import { showtimeShapeOf } from "./showtime-embeds.js";

/** A page to compose: where it starts (a cursor's key, startsAfter) and how many records. */
export interface PageQuery extends Seek {
  limit: number;
  /** Cursor binding of the endpoint and its filters. */
  binding: string;
}

export interface ComposedRange {
  body: Buffer;
  /** The sort key of the page's last record, when it has any. */
  last?: EscapedSortKey;
}

/**
 * Writes the page of `list`'s records [start, end) into `out`: data, pagination (nextCursor null
 * on the last page), freshness. Returns the sort key of the page's last record.
 */
export function composeInto(
  lists: SnapshotLists,
  list: RecordList,
  start: number,
  end: number,
  binding: string,
  fallback: Freshness,
  out: PageBuffer,
) {
  return writeListEnvelope(lists, binding, fallback, out, (fold) => ({
    last: list.render(start, end, out, fold),
    hasMore: end < list.length,
    envelope: list.envelope,
  }));
}

/** What a page's records were, for its envelope: the last one's key, whether more follow, what else it says. */
interface Rendered {
  last: EscapedSortKey | undefined;
  hasMore: boolean;
  /** The list's own members, after pagination (`,"name":value`). */
  envelope?: string;
  /** Writes members after freshness (find_showtimes's listing: its films and cinemas). */
  after?: () => void;
}

/**
 * The list envelope (spec §4.1) around records `render` writes: data, pagination (the cursor of
 * the last record when more follow), the list's own fields if any, and the freshness folded over
 * what was written.
 */
function writeListEnvelope(
  lists: SnapshotLists,
  binding: string,
  fallback: Freshness,
  out: PageBuffer,
  render: (fold: FreshnessFold) => Rendered,
): EscapedSortKey | undefined {
  out.reset();
  out.text('{"data":[');
  const fold = new FreshnessFold(lists.dictionaries.observed, lists.dictionaries.updated);
  const { last, hasMore, envelope = "", after } = render(fold);
  const next = hasMore && last ? encodeCursorEscaped(binding, last.head, last.escapedId) : null;
  out.text(
    `],"pagination":${JSON.stringify({ nextCursor: next, hasMore: next !== null })}${envelope},` +
      `"freshness":${JSON.stringify(fold.result(fallback))}`,
  );
  after?.();
  out.byte(0x7d);
  return last;
}

/** The page of `list`'s records [start, end), in memory of its own. */
export function composeRange(
  lists: SnapshotLists,
  list: RecordList,
  start: number,
  end: number,
  binding: string,
  fallback: Freshness,
  out = new PageBuffer(),
): ComposedRange {
  const last = composeInto(lists, list, start, end, binding, fallback, out);
  return { body: out.finish(), last };
}

/** Writes a page of a list past a seek into `out`: O(log n + limit) record reads, never a scan. */
export function composePageInto(
  lists: SnapshotLists,
  list: RecordList,
  query: PageQuery,
  fallback: Freshness,
  out: PageBuffer,
): void {
  const start = list.seek(query);
  composeInto(lists, list, start, Math.min(start + query.limit, list.length), query.binding, fallback, out);
}

/** A page of a list past a seek, in memory of its own. */
export function composePage(lists: SnapshotLists, list: RecordList, query: PageQuery, fallback: Freshness): Buffer {
  const out = new PageBuffer();
  composePageInto(lists, list, query, fallback, out);
  return out.finish();
}

/**
 * A page of showtimes chosen by every filter (showtime-selection.ts), with embedded records when
 * asked; `listing`, as find_showtimes lists it (showtime-embeds.ts).
 */
export function composeSelectedInto(
  lists: SnapshotLists,
  selection: ShowtimeSelection,
  query: PageQuery & { include?: readonly Embedded[] },
  fallback: Freshness,
  out: PageBuffer,
  listing = false,
): void {
  const page = selectShowtimes(lists, selection, query.after, query.limit);
  const shape = showtimeShapeOf(lists, query.include, selection.distances, listing, out);
  writeListEnvelope(lists, query.binding, fallback, out, (fold) => ({
    last: lists.showtimes.render("byCinema", page.records, out, fold, shape.embed, shape.withoutProvenance),
    hasMore: page.hasMore,
    after: shape.after,
  }));
}

/** `GET /v1/showtimes/{id}`: the record, its embeds when asked, and their freshness. */
export function composeShowtimeInto(
  lists: SnapshotLists,
  record: number,
  include: readonly Embedded[] | undefined,
  fallback: Freshness,
  out: PageBuffer,
): void {
  out.reset();
  out.text('{"data":');
  const fold = new FreshnessFold(lists.dictionaries.observed, lists.dictionaries.updated);
  lists.showtimes.render("byCinema", [record], out, fold, showtimeShapeOf(lists, include, undefined, false, out).embed);
  out.text(`,"freshness":${JSON.stringify(fold.result(fallback))}}`);
}

/** A get-one body (§4.4, §4.6): the record and its own freshness. */
export function composeOne(record: Uint8Array, freshness: Freshness): Buffer {
  const out = new PageBuffer(record.length + 128);
  out.text('{"data":');
  out.raw(record);
  out.text(`,"freshness":${JSON.stringify(freshness)}}`);
  return out.finish();
}
