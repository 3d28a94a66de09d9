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

/**
 * A list page as parts: literal text around the records, in order. The request core joins them
 * with record bytes; the build hands them to its body workers with record handles instead.
 */
export function listBodyParts<R>(records: readonly R[], nextCursor: string | null, freshness: Freshness): Array<R | string> {
  const pagination = JSON.stringify({ nextCursor, hasMore: nextCursor !== null });
  const parts: Array<R | string> = ['{"data":['];
  records.forEach((record, i) => {
    if (i > 0) parts.push(",");
    parts.push(record);
  });
  parts.push(`],"pagination":${pagination},"freshness":${JSON.stringify(freshness)}}`);
  return parts;
}

/** A get-one body as parts: the record and its own freshness. */
export function oneBodyParts<R>(record: R, freshness: Freshness): Array<R | string> {
  return ['{"data":', record, `,"freshness":${JSON.stringify(freshness)}}`];
}

/** Joins body parts whose records are bytes, into one buffer written in place (no Buffer per text part). */
export function joinBodyParts(parts: ReadonlyArray<Buffer | string>): Buffer {
  let length = 0;
  for (const part of parts) length += typeof part === "string" ? (part === "," ? 1 : Buffer.byteLength(part)) : part.length;
  // Its own memory, never a slice of Buffer's shared pool: the core keeps composed pages cached.
  const out = Buffer.allocUnsafeSlow(length);
  let at = 0;
  for (const part of parts) {
    // The separators between records are most of the parts: a byte each, without a call.
    if (part === ",") out[at++] = 0x2c;
    else if (typeof part === "string") at += out.write(part, at);
    else {
      out.set(part, at);
      at += part.length;
    }
  }
  return out;
}

/** A list page: data, pagination (nextCursor null on the last page), freshness. */
export function renderListBody(records: readonly Buffer[], nextCursor: string | null, freshness: Freshness): Buffer {
  return joinBodyParts(listBodyParts(records, nextCursor, freshness));
}

/** A get-one body: the record and its own freshness. */
export function renderOneBody(record: Buffer, freshness: Freshness): Buffer {
  return joinBodyParts(oneBodyParts(record, freshness));
}
