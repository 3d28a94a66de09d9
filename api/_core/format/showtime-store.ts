/**
 * The showtimes of an open snapshot: blocks found through a resident directory and kept decoded
 * in a bounded cache, and the lists that read them: a cinema's cluster (contiguous records), a
 * film's and a cinema+film pair's position lists, the whole list in order, an id index.
 */
import type { BlockFile } from "./block-file.js";
import { DecodeError } from "./bytes.js";
import { SnapshotError } from "./errors.js";
import { BLOCK_ENTRY_BYTES, CLUSTER_ENTRY_BYTES, SHOWTIME_SECTIONS as S } from "./encode-showtimes.js";
import { RECORDS_FILE } from "./files.js";
import type { FreshnessFold } from "./freshness.js";
import { fingerprintOf, hashId } from "./id-hash.js";
import type { LruCache } from "../lru.js";
import { PACKED_HEADER, readPacked } from "./packed.js";
import type { PageBuffer } from "./page-buffer.js";
import type { PagedFile, Section } from "./paged-file.js";
import type { EscapedSortKey, RecordList, Seek } from "./record-list.js";
import { HAS_UPDATED, ShowtimeBlock, ShowtimeDecoder } from "./showtime-block.js";
import { lowerBound, type SnapshotDictionaries } from "./snapshot-dictionaries.js";

/** Bytes a cached block costs beyond its payload: the header's arrays and the cache's bookkeeping. */
const BLOCK_OVERHEAD = 256;

/** A packed array section of the index (packed.ts), read a range at a time through the page cache. */
class PackedSection {
  readonly width: number;
  readonly count: number;

  constructor(
    private readonly index: PagedFile,
    private readonly section: Section,
  ) {
    this.width = index.read(section.offset, 1)[0]!;
    if (this.width < 1 || this.width > 4) throw new SnapshotError(index.file.name, `section at ${section.offset} has width ${this.width}`);
    this.count = (section.length - PACKED_HEADER) / this.width;
    if (!Number.isInteger(this.count)) throw new SnapshotError(index.file.name, `section at ${section.offset} has a partial value`);
  }

  /** Values [start, end). */
  range(start: number, end: number): Uint32Array {
    if (start < 0 || end > this.count || start > end) throw new SnapshotError(this.index.file.name, `values ${start}..${end} are past a position list`);
    const bytes = this.index.read(this.section.offset + PACKED_HEADER + start * this.width, (end - start) * this.width);
    const out = new Uint32Array(end - start);
    for (let i = 0; i < out.length; i++) out[i] = readPacked(bytes, this.width, i);
    return out;
  }

  at(i: number): number {
    return this.range(i, i + 1)[0]!;
  }
}

/** A showtime list: how many, and the record numbers of positions [start, end). */
interface Positions {
  length: number;
  records(start: number, end: number): Uint32Array;
}

export class ShowtimeStore {
  readonly count: number;
  private readonly blockOffset: Float64Array;
  private readonly blockLength: Uint32Array;
  private readonly blockFirst: Uint32Array;
  private readonly blockCount: Uint32Array;
  private readonly blockCinema: Uint32Array;
  private readonly clusterFirst: Uint32Array;
  private readonly clusterCount: Uint32Array;
  private readonly order: PackedSection;
  private readonly filmDirectory: Uint32Array;
  private readonly filmPositions: PackedSection;
  private readonly pairDirectory: Uint32Array;
  private readonly pairEntries: Section;
  private readonly pairPositions: PackedSection;
  private readonly idBuckets: Uint32Array;
  private readonly idRecords: PackedSection;
  private readonly idFingerprints: Section;
  private readonly decoder: ShowtimeDecoder;
  /** The block the decoder is in, and the record it decoded last. */
  private current = -1;
  private currentRecord = -1;

  constructor(
    private readonly index: PagedFile,
    private readonly records: BlockFile,
    readonly dictionaries: SnapshotDictionaries,
    private readonly blocks: LruCache<number, ShowtimeBlock>,
    expectedCount: number,
  ) {
    const resident = (name: string) => index.readSection(name);
    const directory = resident(S.blocks);
    const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength);
    const blockTotal = directory.byteLength / BLOCK_ENTRY_BYTES;
    if (!Number.isInteger(blockTotal)) throw new RangeError("block directory has a partial entry");
    this.blockOffset = new Float64Array(blockTotal);
    this.blockLength = new Uint32Array(blockTotal);
    this.blockFirst = new Uint32Array(blockTotal);
    this.blockCount = new Uint32Array(blockTotal);
    this.blockCinema = new Uint32Array(blockTotal);
    let expectedFirst = 0;
    for (let b = 0; b < blockTotal; b++) {
      const at = b * BLOCK_ENTRY_BYTES;
      this.blockOffset[b] = view.getFloat64(at, true);
      this.blockLength[b] = view.getUint32(at + 8, true);
      this.blockFirst[b] = view.getUint32(at + 12, true);
      this.blockCount[b] = view.getUint32(at + 16, true);
      this.blockCinema[b] = view.getUint32(at + 20, true);
      if (this.blockFirst[b] !== expectedFirst || this.blockCount[b] === 0) throw new RangeError("block directory out of order");
      expectedFirst += this.blockCount[b]!;
    }
    this.count = expectedFirst;
    if (this.count !== expectedCount) throw new RangeError(`${this.count} showtimes in blocks, the manifest says ${expectedCount}`);
    const clusters = new Uint32Array(resident(S.clusters).buffer);
    const cinemas = clusters.length / (CLUSTER_ENTRY_BYTES / 4);
    this.clusterFirst = Uint32Array.from({ length: cinemas }, (_, c) => clusters[4 * c]!);
    this.clusterCount = Uint32Array.from({ length: cinemas }, (_, c) => clusters[4 * c + 1]!);
    this.order = new PackedSection(index, index.section(S.order));
    this.filmDirectory = new Uint32Array(resident(S.films).buffer);
    this.filmPositions = new PackedSection(index, index.section(S.filmPositions));
    this.pairDirectory = new Uint32Array(resident(S.pairs).buffer);
    this.pairEntries = index.section(S.pairEntries);
    this.pairPositions = new PackedSection(index, index.section(S.pairPositions));
    this.idBuckets = new Uint32Array(resident(S.idBuckets).buffer);
    this.idRecords = new PackedSection(index, index.section(S.idRecords));
    this.idFingerprints = index.section(S.idFingerprints);
    if (this.order.count !== this.count || this.idRecords.count !== this.count) throw new RangeError("position lists do not match the showtimes");
    this.decoder = new ShowtimeDecoder(dictionaries.fragments);
  }

  /** A decoded block, from the cache or the disk. */
  private block(b: number): ShowtimeBlock {
    let block = this.blocks.get(b);
    if (!block) {
      const payload = this.records.read({ offset: this.blockOffset[b]!, length: this.blockLength[b]! });
      block = new ShowtimeBlock(payload);
      if (block.count !== this.blockCount[b]) throw new DecodeError(`block ${b} holds ${block.count} records, its directory says ${this.blockCount[b]}`);
      this.blocks.set(b, block, block.size + BLOCK_OVERHEAD);
    }
    return block;
  }

  private blockOf(record: number): number {
    if (!(record >= 0 && record < this.count)) throw new DecodeError(`record ${record} does not exist`);
    return lowerBound(this.blockFirst.length, (b) => this.blockFirst[b]! > record) - 1;
  }

  /** Leaves the decoder on `record`: the next one in the same block costs one step, any other a seek. */
  private decode(record: number): void {
    const d = this.decoder;
    if (record === this.currentRecord + 1 && this.current >= 0 && record < this.blockFirst[this.current]! + this.blockCount[this.current]!) {
      d.next();
    } else {
      const b = this.blockOf(record);
      d.seek(this.block(b), record - this.blockFirst[b]!);
      d.next();
      this.current = b;
    }
    this.currentRecord = record;
  }

  /** Runs a read of the record blocks; a decoding failure is a corrupt snapshot, named as such. */
  private guarded<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      this.current = this.currentRecord = -1;
      if (error instanceof DecodeError || error instanceof RangeError) throw new SnapshotError(RECORDS_FILE, error.message);
      throw error;
    }
  }

  /** The start-time code of a record. */
  startsAtOf(record: number): number {
    return this.guarded(() => {
      this.decode(record);
      return this.decoder.startsAt;
    });
  }

  /** The id of a record, as a string. */
  idOf(record: number): string {
    return this.guarded(() => {
      this.decode(record);
      return JSON.parse(`"${Buffer.from(this.decoder.idBytes()).toString("utf8")}"`) as string;
    });
  }

  /** The film (list index) of a record. */
  filmOf(record: number): number {
    return this.guarded(() => {
      this.decode(record);
      return this.decoder.film;
    });
  }

  /** Renders records as comma-separated JSON; returns the last one's sort key. */
  render(records: ArrayLike<number>, out: PageBuffer, fold: FreshnessFold): EscapedSortKey | undefined {
    if (records.length === 0) return undefined;
    return this.guarded(() => {
      const d = this.decoder;
      const cinemas = this.dictionaries.cinemaFragments;
      for (let i = 0; i < records.length; i++) {
        if (i > 0) out.byte(0x2c);
        this.decode(records[i]!);
        d.render(out, cinemas, this.blockCinema[this.current]!);
        fold.add(d.observed, d.flags & HAS_UPDATED ? d.updated : -1);
      }
      return {
        instantKey: this.dictionaries.instantKeyOf(d.startsAt),
        escapedId: Buffer.from(d.idBytes()).toString("utf8"),
      };
    });
  }

  /** The record with this id, or undefined. */
  findById(id: string): number | undefined {
    const hash = hashId(id);
    const buckets = this.idBuckets[0]!;
    const bucket = hash & (buckets - 1);
    const [start, end] = [this.idBuckets[1 + bucket]!, this.idBuckets[2 + bucket]!];
    if (end < start || end > this.count) throw new SnapshotError(this.index.file.name, "the id index is inconsistent");
    const fingerprints = this.index.read(this.idFingerprints.offset + 2 * start, 2 * (end - start));
    const wanted = fingerprintOf(hash);
    for (let i = 0; i < end - start; i++) {
      if ((fingerprints[2 * i]! | (fingerprints[2 * i + 1]! << 8)) !== wanted) continue;
      const record = this.idRecords.at(start + i);
      if (this.idOf(record) === id) return record;
    }
    return undefined;
  }

  /** Each block's place and contents, in record order (tools and tests). */
  describeBlocks(): Array<{ firstRecord: number; count: number; cinema: number; bytes: number; attributeSets: number[] }> {
    return Array.from(this.blockFirst, (firstRecord, b) => {
      const block = this.guarded(() => this.block(b));
      return { firstRecord, count: this.blockCount[b]!, cinema: this.blockCinema[b]!, bytes: block.end, attributeSets: block.attributeSets };
    });
  }

  /** Every showtime, in list order. */
  all(): RecordList {
    return this.list({ length: this.count, records: (s, e) => this.order.range(s, e) });
  }

  /** The showtimes of cinema c: its cluster, already in list order. */
  ofCinema(c: number): RecordList {
    const first = this.clusterFirst[c]!;
    const length = this.clusterCount[c]!;
    return this.list({
      length,
      records: (s, e) => {
        const out = new Uint32Array(e - s);
        for (let i = 0; i < out.length; i++) out[i] = first + s + i;
        return out;
      },
    });
  }

  /** The showtimes of film f. */
  ofFilm(f: number): RecordList {
    const [start, length] = [this.filmDirectory[2 * f]!, this.filmDirectory[2 * f + 1]!];
    return this.list({ length, records: (s, e) => this.filmPositions.range(start + s, start + e) });
  }

  /** The showtimes of film f at cinema c. */
  ofPair(c: number, f: number): RecordList {
    const [entryStart, entryCount] = [this.pairDirectory[2 * c]!, this.pairDirectory[2 * c + 1]!];
    const entry = (i: number) => {
      const bytes = this.index.read(this.pairEntries.offset + 12 * (entryStart + i), 12);
      const view = new DataView(bytes.buffer, bytes.byteOffset, 12);
      return { film: view.getUint32(0, true), start: view.getUint32(4, true), count: view.getUint32(8, true) };
    };
    const at = lowerBound(entryCount, (i) => entry(i).film >= f);
    if (at === entryCount) return this.list({ length: 0, records: () => new Uint32Array(0) });
    const found = entry(at);
    if (found.film !== f) return this.list({ length: 0, records: () => new Uint32Array(0) });
    const first = this.clusterFirst[c]!;
    return this.list({
      length: found.count,
      records: (s, e) => this.pairPositions.range(found.start + s, found.start + e).map((local) => first + local),
    });
  }

  private list(positions: Positions): RecordList {
    return new ShowtimeList(this, positions);
  }
}

/** A showtime list: binary search by sort key, rendering through the store. */
class ShowtimeList implements RecordList {
  readonly length: number;

  constructor(
    private readonly store: ShowtimeStore,
    private readonly positions: Positions,
  ) {
    this.length = positions.length;
  }

  private recordAt(j: number): number {
    return this.positions.records(j, j + 1)[0]!;
  }

  seek(seek: Seek): number {
    const dictionaries = this.store.dictionaries;
    let start = 0;
    if (seek.after) {
      const [instant, id] = seek.after as [string, string];
      const [lo, hi] = [dictionaries.firstCodeAtOrAfter(instant), dictionaries.firstCodeAfter(instant)];
      start = lowerBound(this.length, (j) => {
        const record = this.recordAt(j);
        const code = this.store.startsAtOf(record);
        if (code >= hi) return true;
        if (code < lo) return false;
        return this.store.idOf(record) > id;
      });
    }
    if (seek.startsAfterKey !== undefined) {
      const first = dictionaries.firstCodeAfter(seek.startsAfterKey);
      start = Math.max(start, lowerBound(this.length, (j) => this.store.startsAtOf(this.recordAt(j)) >= first));
    }
    return start;
  }

  render(start: number, end: number, out: PageBuffer, fold: FreshnessFold): EscapedSortKey | undefined {
    return this.store.render(this.positions.records(start, end), out, fold);
  }
}
