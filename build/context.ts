/** The per-run state that build stages read and fill; nothing lives at module level. */
import type { Freshness } from "../api/_core/render-body.js";
import type { ViewFilters } from "../api/_core/layout.js";
import type { SourceFile } from "./read-source-file.js";
import type { Problem } from "./problems.js";
import type { RecordArena } from "./record-arena.js";
import type { Resource } from "./schemas.js";

/** One record as read from a source file, before validation. */
export interface SourceRecord {
  resource: Resource;
  file: string;
  /** 1-based line of an NDJSON record. */
  line?: number;
  /** 0-based index of a record in a JSON array file. */
  index?: number;
  value: unknown;
}

/**
 * A validated record, reduced to what later stages need. At 2M showtimes every object and field
 * here is walked by each garbage collection, so there is no nested meta object: the sort key and
 * provenance times are fields, and repeated values are shared (validate-records' Interner).
 */
export interface Entry {
  id: string;
  /** Handle of the record's canonical JSON in the run's RecordArena. */
  record: number;
  /** Instant key of startsAt (showtimes): the first part of the sort key. */
  instant?: string;
  /** provenance.observedAt as [instant key, text]. */
  observed?: [string, string];
  /** provenance.sourceUpdatedAt as [instant key, text]. */
  updated?: [string, string];
  file: string;
  /** 1-based line of an NDJSON record. */
  line?: number;
  /** 0-based index of a record in a JSON array file. */
  index?: number;
  cinemaId?: string;
  filmId?: string;
  attributeIds?: string[];
}

/** An entry's sort key as the API orders and cursors name it: [instant, id] or [id]. */
export function sortKeyOf(entry: Entry): string[] {
  return entry.instant === undefined ? [entry.id] : [entry.instant, entry.id];
}

/** Orders entries by sort key without building one (the sort compares millions of pairs). */
export function compareEntries(a: Entry, b: Entry): number {
  if (a.instant !== b.instant) return a.instant! < b.instant! ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A filtered showtime list: the positions (in list order) of the showtimes it selects. */
export interface View {
  filters: ViewFilters;
  positions: number[];
}

/** Where the snapshot's files go; the disk writer stages them and swaps them in on commit. */
export interface OutputWriter {
  write(relativePath: string, bytes: Buffer): void;
  /** Opens a file written in pieces (record packs can be larger than one Buffer should be). */
  openAppend(relativePath: string): { append(bytes: Buffer): void; close(): void };
  /** Makes the written files the snapshot, atomically replacing any previous one. */
  commit(): Promise<void>;
  /** A digest of every path and its bytes written so far, independent of write order: the snapshot's identity. */
  digest(): string;
  /** Throws away everything written. */
  abort(): Promise<void>;
}

export interface Manifest {
  format: number;
  snapshotId: string;
  defaultLimit: number;
  counts: Record<Resource, number>;
  freshness: Freshness;
}

export interface BuildStats {
  files: number;
  bytes: number;
}

export interface BuildContext {
  dataDir: string;
  gzipLevel: number;
  /** Body worker threads (assemble, gzip, tag); 0 encodes on the main thread. */
  gzipWorkers?: number;
  /** Validation worker threads; 0 validates on the main thread; unset: workers for large inputs only. */
  validateWorkers?: number;
  output: OutputWriter;
  problems: Problem[];
  /** Every source file, in the fixed order reports and output follow. */
  sourceFiles?: SourceFile[];
  sources?: AsyncIterable<SourceRecord>;
  entries: Record<Resource, Entry[]>;
  /** The records' bytes, which entries refer to by handle. */
  arena: RecordArena;
  views: View[];
  manifest?: Manifest;
  /** Called as work advances, for progress displays. */
  onProgress?: (stage: string, done: number, total?: number) => void;
}
