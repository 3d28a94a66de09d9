/**
 * A snapshot's records as the diff reads them, through the format's own lists: in list order
 * (a cursor), or one at a position. Memory stays bounded by the format's caches whatever the
 * snapshot's size.
 */
import { FreshnessFold } from "../../api/_core/format/read/freshness.js";
import type { ListResource } from "../../api/_core/format/layout/manifest.js";
import { PageBuffer } from "../../api/_core/format/primitives/page-buffer.js";
import type { RecordList } from "../../api/_core/format/read/record-list.js";
import type { SnapshotLists } from "../../api/_core/format/read/snapshot.js";
import { compareSortKeys } from "../../api/_core/respond/text.js";

/** One record: its sort key (the last element is its id), canonical JSON and list position. */
export interface DiffRecord {
  sortKey: string[];
  id: string;
  bytes: Buffer;
  position: number;
}

/** Renders the record at a list position. */
function recordAt(lists: SnapshotLists, list: RecordList, position: number, out: PageBuffer): DiffRecord {
  out.reset();
  const key = list.render(
    position,
    position + 1,
    out,
    new FreshnessFold(lists.dictionaries.observed, lists.dictionaries.updated),
  )!;
  const id = JSON.parse(`"${key.escapedId}"`) as string;
  return { sortKey: [...(key.head ?? []), id], id, bytes: out.finish(), position };
}

/** Reads a resource's records in list order, checking that order (a bad snapshot must not diff silently). */
export class ListCursor {
  private readonly list: RecordList;
  private readonly out = new PageBuffer();
  private position = 0;
  private previous: string[] | undefined;

  constructor(
    private readonly lists: SnapshotLists,
    resource: ListResource,
  ) {
    this.list = lists.list(resource);
  }

  /** The next record, or undefined after the last. */
  next(): DiffRecord | undefined {
    if (this.position === this.list.length) return undefined;
    const record = recordAt(this.lists, this.list, this.position++, this.out);
    if (this.previous && compareSortKeys(this.previous, record.sortKey) >= 0)
      throw new Error(`the ${record.position}th record is out of list order`);
    this.previous = record.sortKey;
    return record;
  }
}

/** The record bytes at a list position (the few the diff pairs out of list order). */
export function readRecord(lists: SnapshotLists, resource: ListResource, position: number): Buffer {
  return recordAt(lists, lists.list(resource), position, new PageBuffer()).bytes;
}
