/**
 * Composes a list page that was not precomputed (another limit, startsAfter, a cursor from an
 * earlier snapshot) from per-record bytes and the sorted index: a binary search for the first
 * record, then `limit` reads. O(log n + limit), never a scan.
 */
import { encodeCursor } from "./cursor.js";
import type { ListResource, ViewFilters } from "./layout.js";
import { FreshnessFold, renderListBody } from "./render-body.js";
import type { ListIndex, SnapshotReader } from "./snapshot-reader.js";
import { compareSortKeys } from "./text.js";

export interface PageQuery {
  resource: ListResource;
  filters: ViewFilters;
  /** Sort key of the last record already served (from a cursor). */
  after?: string[];
  /** Instant key of startsAfter: only records starting strictly later. */
  startsAfterKey?: string;
  limit: number;
  /** Cursor binding of this endpoint and its filters. */
  binding: string;
}

/** The first j in [0, length) for which isPast(j) holds, given isPast is monotone. */
function lowerBound(length: number, isPast: (j: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (isPast(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

function firstIndex(reader: SnapshotReader, list: ListIndex, query: PageQuery): number {
  // Through the record cache: a view's first probes are the same for every request on it.
  const keyAt = (j: number) => reader.items(query.resource, [list.position(j)])[0]!.meta.sortKey;
  let start = 0;
  if (query.after) {
    const after = query.after;
    start = lowerBound(list.length, (j) => compareSortKeys(keyAt(j), after) > 0);
  }
  if (query.startsAfterKey !== undefined) {
    const instant = query.startsAfterKey;
    start = Math.max(start, lowerBound(list.length, (j) => keyAt(j)[0]! > instant));
  }
  return start;
}

/** The body of one list page, byte-identical to the precomputed page for the same request. */
export function composePage(reader: SnapshotReader, query: PageQuery): Buffer {
  const list = reader.list(query.resource, query.filters);
  const start = firstIndex(reader, list, query);
  const end = Math.min(start + query.limit, list.length);
  const positions = list.positions(start, end);
  const items = reader.items(query.resource, positions);
  const fold = new FreshnessFold();
  for (const item of items) fold.add(item.meta);
  const lastKey = items.at(-1)?.meta.sortKey;
  const next = end < list.length && lastKey ? encodeCursor({ binding: query.binding, after: lastKey }) : null;
  return renderListBody(items.map((item) => item.bytes), next, fold.result(reader.manifest().freshness));
}
