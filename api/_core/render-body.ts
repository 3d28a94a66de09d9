/**
 * Response bodies, byte for byte. The build renders precomputed pages with these functions and
 * the request core composes other pages with them, which is what makes the two identical.
 */

/** Per-record facts kept beside the record bytes: its sort key and provenance times. */
export interface RecordMeta {
  /** [instantKey, id] for showtimes, [id] for other resources. */
  sortKey: string[];
  /** [instantKey, original text] of provenance.observedAt, when the record has provenance. */
  observed?: [string, string];
  /** [instantKey, original text] of provenance.sourceUpdatedAt, when present. */
  updated?: [string, string];
}

export interface Freshness {
  observedAt: string;
  sourceUpdatedAt?: string;
}

/** Encodes meta compactly for the snapshot; decodeMeta is its inverse. */
export function encodeMeta(meta: RecordMeta): string {
  return JSON.stringify([meta.sortKey, meta.observed ?? null, meta.updated ?? null]);
}

export function decodeMeta(text: string): RecordMeta {
  const [sortKey, observed, updated] = JSON.parse(text) as [string[], [string, string] | null, [string, string] | null];
  const meta: RecordMeta = { sortKey };
  if (observed) meta.observed = observed;
  if (updated) meta.updated = updated;
  return meta;
}

/**
 * Folds records into freshness (v1 issue): the earliest observedAt and the latest
 * sourceUpdatedAt, compared as instants; the first record wins a tie, for determinism.
 */
export class FreshnessFold {
  private observed: [string, string] | undefined;
  private updated: [string, string] | undefined;

  add(meta: Pick<RecordMeta, "observed" | "updated">): void {
    if (meta.observed && (!this.observed || meta.observed[0] < this.observed[0])) this.observed = meta.observed;
    if (meta.updated && (!this.updated || meta.updated[0] > this.updated[0])) this.updated = meta.updated;
  }

  /** The folded freshness, or `fallback` when no record carried provenance. */
  result(fallback: Freshness): Freshness {
    if (!this.observed) return fallback;
    return this.updated
      ? { observedAt: this.observed[1], sourceUpdatedAt: this.updated[1] }
      : { observedAt: this.observed[1] };
  }
}

const COMMA = Buffer.from(",");

/** Record bytes as read from a pack (Buffer) or as held by the build (string): same UTF-8 bytes. */
type RecordBytes = Buffer | string;

function toBuffer(record: RecordBytes): Buffer {
  return typeof record === "string" ? Buffer.from(record) : record;
}

/** A list page: data, pagination (nextCursor null on the last page), freshness. */
export function renderListBody(records: readonly RecordBytes[], nextCursor: string | null, freshness: Freshness): Buffer {
  const pagination = JSON.stringify({ nextCursor, hasMore: nextCursor !== null });
  const parts: Buffer[] = [Buffer.from('{"data":[')];
  records.forEach((record, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(toBuffer(record));
  });
  parts.push(Buffer.from(`],"pagination":${pagination},"freshness":${JSON.stringify(freshness)}}`));
  return Buffer.concat(parts);
}

/** A get-one body: the record and its own freshness. */
export function renderOneBody(record: RecordBytes, freshness: Freshness): Buffer {
  return Buffer.concat([Buffer.from('{"data":'), toBuffer(record), Buffer.from(`,"freshness":${JSON.stringify(freshness)}}`)]);
}
