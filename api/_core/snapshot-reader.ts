/**
 * Read access to a built snapshot through the layout module. Startup reads nothing; the
 * manifest is read on first use and its stat re-checked at most every `recheckMs`, so a rebuilt
 * snapshot swapped in under a running server is picked up and caches of the old one are dropped.
 */
import { readFileSync, statSync } from "node:fs";
import { BlockCache } from "./block-cache.js";
import { codingBytes, decodeBodyFile, ETAG_LENGTH, type StoredBody } from "./body-file.js";
import { SnapshotUnavailableError } from "./errors.js";
import { findInPackIndex, type PackSlot } from "./keyed-pack.js";
import { BODY_PACK, bodyKeyOf, LIST_RESOURCES, MANIFEST_FILE, packFiles, resolveInside, SNAPSHOT_FORMAT, VIEW_PACK, viewKeyOf } from "./layout.js";
import type { BodyKey, KeyedPackFiles, ListResource, PackFiles, ViewFilters } from "./layout.js";
import { LruCache } from "./lru.js";
import { decodeMeta, type Freshness, type RecordMeta } from "./render-body.js";

export interface SnapshotManifest {
  format: number;
  snapshotId: string;
  defaultLimit: number;
  counts: Record<ListResource, number>;
  freshness: Freshness;
}

/** A list in order: its length and the pack position of its j-th record. */
export interface ListIndex {
  length: number;
  position(j: number): number;
  /** Pack positions of the records at list indexes [start, end), read at once. */
  positions(start: number, end: number): number[];
}

/** A record's bytes with its sort key and provenance times. */
export interface RecordItem {
  bytes: Buffer;
  meta: RecordMeta;
}

/** A number naming a record of any resource (`kind`: its index in LIST_RESOURCES): number keys hash faster than strings. */
function recordKey(kind: number, position: number): number {
  return position * LIST_RESOURCES.length + kind;
}

const VIEW_SLOT_ENTRIES = 4_096;
/** Consecutive records read at once that make a walk through a list (its offsets bypass the block cache). */
const WALK_RUN = 64;

/** Bytes a cached record costs beyond its JSON: its decoded meta and the cache's bookkeeping. */
const RECORD_ITEM_OVERHEAD = 300;

/** A stored body, with its other codings once a request has needed them. */
export interface CachedBody extends StoredBody {
  cacheKey: string;
  identity?: Buffer;
  br?: Buffer;
}

export interface ReaderOptions {
  /** Bytes of index blocks kept in memory. */
  blockCacheBytes?: number;
  /** Bytes of precomputed bodies kept in memory (the hot pages). */
  bodyCacheBytes?: number;
  /** Bytes of records kept in memory for composed pages. */
  recordCacheBytes?: number;
  /** How often to look for a replaced snapshot. */
  recheckMs?: number;
}

export class SnapshotReader {
  private readonly blocks: BlockCache;
  private readonly bodies: LruCache<string, CachedBody>;
  private readonly recordCache: LruCache<number, RecordItem>;
  /** Where each recently asked view lies in the view pack (the lookup hashes and searches). */
  private readonly viewSlots = new LruCache<string, { data: string; slot: PackSlot | undefined }>(VIEW_SLOT_ENTRIES);
  private current: { manifest: SnapshotManifest; stamp: string } | undefined;
  private readonly paths = new Map<string, string>();
  private readonly packs = new Map<ListResource, PackFiles>();
  private checkedAt = 0;

  constructor(
    readonly root: string,
    private readonly options: ReaderOptions = {},
  ) {
    this.blocks = new BlockCache(options.blockCacheBytes ?? 8 * 1024 * 1024);
    this.bodies = new LruCache(options.bodyCacheBytes ?? 16 * 1024 * 1024);
    this.recordCache = new LruCache(options.recordCacheBytes ?? 8 * 1024 * 1024);
  }

  /** The manifest of the snapshot being served; throws SnapshotUnavailableError when there is none. */
  manifest(): SnapshotManifest {
    const now = Date.now();
    if (this.current && now - this.checkedAt < (this.options.recheckMs ?? 0)) return this.current.manifest;
    this.checkedAt = now;
    const path = this.resolved(MANIFEST_FILE);
    let stamp: string;
    try {
      const stat = statSync(path);
      stamp = `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
      if (this.current?.stamp === stamp) return this.current.manifest;
      const manifest = JSON.parse(readFileSync(path, "utf8")) as SnapshotManifest;
      if (manifest.format !== SNAPSHOT_FORMAT) throw new Error(`snapshot format ${manifest.format} is not ${SNAPSHOT_FORMAT}`);
      this.blocks.clear();
      this.bodies.clear();
      this.recordCache.clear();
      this.viewSlots.clear();
      this.openEveryFile();
      // A rebuild swaps the whole folder: files opened now and a manifest unchanged since are one
      // snapshot, and reads go through these descriptors until the next manifest is taken.
      const after = statSync(path);
      if (`${after.ino}:${after.mtimeMs}:${after.size}` !== stamp) throw new Error("snapshot replaced while opening it");
      this.current = { manifest, stamp };
      return manifest;
    } catch (error) {
      this.current = undefined;
      throw new SnapshotUnavailableError(`snapshot unavailable: ${(error as Error).message}`);
    }
  }

  /** A precomputed body, or undefined when the snapshot has none for this key. */
  body(key: BodyKey): CachedBody | undefined {
    return this.bodyAt(bodyKeyOf(key));
  }

  /**
   * A precomputed body by its pack key (layout's bodyKeyOf), which callers may memoize as the
   * key's latin1 string: a string costs the heap ~40 bytes, a Buffer ~200 and a native allocation.
   */
  bodyAt(packKey: Buffer | string): CachedBody | undefined {
    const cacheKey = typeof packKey === "string" ? packKey : packKey.toString("latin1");
    const hit = this.bodies.get(cacheKey);
    if (hit) return hit;
    const key = typeof packKey === "string" ? Buffer.from(packKey, "latin1") : packKey;
    const { data, slot } = this.guard(() => this.findInPack(BODY_PACK, key));
    if (!slot) return undefined;
    const file = this.guard(() => this.blocks.readDirect(data, slot.offset, slot.length));
    const body: CachedBody = { ...this.guard(() => decodeBodyFile(file)), cacheKey };
    this.bodies.set(cacheKey, body, file.length);
    return body;
  }

  /** Bytes each cache holds now, as counted against its bound (tests and diagnostics). */
  cachedBytes(): { blocks: number; bodies: number; records: number } {
    return { blocks: this.blocks.cachedBytes, bodies: this.bodies.size, records: this.recordCache.size };
  }

  /** Counts what was derived from a cached body (identity, brotli) against the cache's bound. */
  remember(body: CachedBody): void {
    const size = ETAG_LENGTH + codingBytes(body);
    if (this.bodies.get(body.cacheKey) === body) this.bodies.set(body.cacheKey, body, size);
  }

  /** The list of a resource, or of a showtime view; an unknown view is an empty list. */
  list(resource: ListResource, filters: ViewFilters): ListIndex {
    const manifest = this.manifest();
    if (filters.cinemaId === undefined && filters.filmId === undefined) {
      return { length: manifest.counts[resource], position: (j) => j, positions: (start, end) => Array.from({ length: end - start }, (_, i) => start + i) };
    }
    const viewKey = JSON.stringify([filters.cinemaId ?? null, filters.filmId ?? null]);
    let found = this.viewSlots.get(viewKey);
    if (!found) this.viewSlots.set(viewKey, (found = this.guard(() => this.findInPack(VIEW_PACK, viewKeyOf(filters)))));
    const { data, slot } = found;
    if (!slot) return { length: 0, position: () => 0, positions: () => [] };
    const read = (start: number, count: number) => this.guard(() => this.blocks.read(data, slot.offset + start * 4, count * 4));
    return {
      length: slot.length / 4,
      position: (j) => read(j, 1).readUInt32LE(0),
      positions: (start, end) => {
        if (end <= start) return [];
        const bytes = read(start, end - start);
        return Array.from({ length: end - start }, (_, i) => bytes.readUInt32LE(i * 4));
      },
    };
  }

  /** Opens every file of the layout now, so later reads cannot mix two snapshots; a missing one fails when read. */
  private openEveryFile(): void {
    const relative = [BODY_PACK, VIEW_PACK].flatMap((pack) => [pack.data, pack.index]);
    for (const resource of LIST_RESOURCES) relative.push(...Object.values(packFiles(resource)));
    for (const file of relative) {
      try {
        this.blocks.file(this.resolved(file));
      } catch {
        // Reported as a 503 by the read that needs it.
      }
    }
  }

  /** Looks a key up in a keyed pack's index, through the block cache. */
  private findInPack(files: KeyedPackFiles, key: Buffer): { data: string; slot: PackSlot | undefined } {
    const index = this.resolved(files.index);
    const slot = findInPackIndex((offset, length) => this.blocks.read(index, offset, length), key);
    return { data: this.resolved(files.data), slot };
  }

  /**
   * The records (bytes and meta) at pack positions, through a bounded cache of recent records:
   * a composed page reads up to 100 records scattered over the pack, two reads each when cold.
   */
  items(resource: ListResource, positions: readonly number[]): RecordItem[] {
    const out: RecordItem[] = new Array(positions.length);
    const missing: number[] = [];
    const kind = LIST_RESOURCES.indexOf(resource);
    for (let i = 0; i < positions.length; i++) {
      const hit = this.recordCache.get(recordKey(kind, positions[i]!));
      if (hit) out[i] = hit;
      else missing.push(i);
    }
    // Misses at consecutive positions (a whole list, a view's neighbours) are read as one range.
    for (let m = 0, run = 1; m < missing.length; m += run) {
      const first = positions[missing[m]!]!;
      run = 1;
      while (m + run < missing.length && positions[missing[m + run]!] === first + run) run++;
      const records = this.records(resource, first, run);
      const metas = this.metas(resource, first, run);
      for (let k = 0; k < run; k++) {
        const item = { bytes: records[k]!, meta: metas[k]! };
        out[missing[m + k]!] = item;
        this.recordCache.set(recordKey(kind, first + k), item, item.bytes.length + RECORD_ITEM_OVERHEAD);
      }
    }
    return out;
  }

  /** Sort keys and provenance times of `count` consecutive pack positions, read directly (no block churn). */
  private metas(resource: ListResource, first: number, count: number): RecordMeta[] {
    const files = this.packOf(resource);
    return this.guard(() => {
      const offsets = this.offsets(files.metaIndex, first, count);
      const base = offsets[0]!;
      // Decoded at once and dropped: a transient read may come from Buffer's shared pool.
      const bytes = this.blocks.readDirect(files.meta, base, offsets[count]! - base, { pooled: true });
      return Array.from({ length: count }, (_, i) => decodeMeta(bytes.toString("utf8", offsets[i]! - base, offsets[i + 1]! - base)));
    });
  }

  /** The bytes of the records at `count` consecutive pack positions from `first`. */
  private records(resource: ListResource, first: number, count: number): Buffer[] {
    const files = this.packOf(resource);
    return this.guard(() => {
      const offsets = this.offsets(files.recordsIndex, first, count);
      const base = offsets[0]!;
      const bytes = this.blocks.readDirect(files.records, base, offsets[count]! - base);
      return Array.from({ length: count }, (_, i) => bytes.subarray(offsets[i]! - base, offsets[i + 1]! - base));
    });
  }

  /** A layout path made absolute and checked, once: lookups ask for the same few paths again and again. */
  private resolved(relative: string): string {
    let full = this.paths.get(relative);
    if (full === undefined) this.paths.set(relative, (full = resolveInside(this.root, relative)));
    return full;
  }

  /** A resource's record pack, as absolute paths, made once per resource (read for every record missed). */
  private packOf(resource: ListResource): PackFiles {
    let files = this.packs.get(resource);
    if (!files) {
      const relative = packFiles(resource);
      files = {
        records: this.resolved(relative.records),
        recordsIndex: this.resolved(relative.recordsIndex),
        meta: this.resolved(relative.meta),
        metaIndex: this.resolved(relative.metaIndex),
      };
      this.packs.set(resource, files);
    }
    return files;
  }

  private offsets(indexFile: string, position: number, count: number): number[] {
    // A long run is a walk through a list, which reads each offset once: read directly, or it would
    // push the keyed packs' hot index blocks out. Short runs (a view's scattered records) go
    // through the cache, as their neighbours are read again by the next page of the same view.
    const offset = position * 8;
    const length = (count + 1) * 8;
    const raw = count >= WALK_RUN ? this.blocks.readDirect(indexFile, offset, length, { pooled: true }) : this.blocks.read(indexFile, offset, length);
    return Array.from({ length: count + 1 }, (_, i) => raw.readDoubleLE(i * 8));
  }

  /** Any failure reading the pack means the snapshot is broken: a 503, never a crash. */
  private guard<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      throw new SnapshotUnavailableError((error as Error).message);
    }
  }
}
