/** The per-run state that build stages read and fill; nothing lives at module level. */
import type { Freshness, RecordMeta } from "../api/_core/render-body.js";
import type { ViewFilters } from "../api/_core/layout.js";
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

/** A validated record, reduced to what later stages need: its bytes, keys and references. */
export interface Entry {
  id: string;
  /** Handle of the record's canonical JSON in the run's RecordArena (neither a string nor a Buffer each: see there). */
  record: number;
  meta: RecordMeta;
  file: string;
  line?: number;
  index?: number;
  cinemaId?: string;
  filmId?: string;
  attributeIds?: string[];
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
  /** gzip worker threads; 0 compresses on the main thread. */
  gzipWorkers?: number;
  output: OutputWriter;
  problems: Problem[];
  sources?: AsyncIterable<SourceRecord>;
  entries: Record<Resource, Entry[]>;
  /** The records' bytes, which entries refer to by handle. */
  arena: RecordArena;
  views: View[];
  manifest?: Manifest;
  /** Called as work advances, for progress displays. */
  onProgress?: (stage: string, done: number, total?: number) => void;
}
