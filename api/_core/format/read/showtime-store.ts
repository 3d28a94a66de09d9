/**
 * The showtimes of an open snapshot: records clustered by cinema, found through a resident
 * directory of blocks kept decoded in a bounded cache; and the lists that read them: a cinema's
 * cluster (contiguous records), the whole list, each film and each cinema+film pair (position lists
 * into the clusters), and an id index.
 */
import type { BlockFile } from "../primitives/block-file.js";
import { ByteReader, DecodeError } from "../primitives/bytes.js";
import { SnapshotError } from "../primitives/errors.js";
import {
  BLOCK_ENTRY_BYTES,
  CLUSTER_ENTRY_BYTES,
  clusteringSections,
  SHOWTIME_SECTIONS as S,
  SUMMARY_CHUNK,
  type Clustering,
} from "../layout/sections.js";
import { RECORDS_FILE } from "../primitives/files.js";
import type { FreshnessFold } from "./freshness.js";
import { fingerprintOf, hashId } from "../primitives/id-hash.js";
import { BlockCache } from "../primitives/block-cache.js";
import { PackedSection } from "../primitives/packed-section.js";
import { literal, PAD, type PageBuffer } from "../primitives/page-buffer.js";
import type { PagedFile, Section } from "../primitives/paged-file.js";
import type { EscapedSortKey, RecordList, Seek } from "./record-list.js";
import { ShowtimeBlock, ShowtimeDecoder } from "./showtime-block.js";
import type { ShowtimeEnds } from "./showtime-ends.js";
import { lowerBound } from "../primitives/search.js";
import type { SnapshotDictionaries } from "./snapshot-dictionaries.js";

/** The text around a showtime's id and record in a change of the feed (decision: changes feed). */
const UPSERT_OPEN = literal('{"op":"upsert","type":"showtime","id":"');
const RECORD_OPEN = literal('","record":');
const UPSERT_OPEN_END = UPSERT_OPEN.bytes.length - PAD;
const RECORD_OPEN_END = RECORD_OPEN.bytes.length - PAD;

/** Writes `,"film":{…}` and/or `,"cinema":{…}` into a record being rendered, folding their freshness. */
export type Embed = (out: PageBuffer, fold: FreshnessFold, film: number, cinema: number) => void;

/** Records per entry of the table that finds a record's block without a search. */
const CHUNK_SHIFT = 6;

/** One clustering's resident directories: where each block lies and what it holds, and each cluster's records. */
class ClusterDirectory {
  readonly offset: Float64Array;
  readonly length: Uint32Array;
  readonly first: Uint32Array;
  readonly count: Uint32Array;
  /** The cinema (or film) each block belongs to. */
  readonly cluster: Uint32Array;
  /** The start-time code of each block's first record. */
  readonly firstStartsAt: Uint32Array;
  readonly clusterFirst: Uint32Array;
  readonly clusterCount: Uint32Array;
  readonly records: number;
  /** The block holding record k << CHUNK_SHIFT, for every k. */
  private readonly chunkBlock: Uint32Array;

  constructor(index: PagedFile, clustering: Clustering, expectedRecords: number) {
    const names = clusteringSections(clustering);
    const directory = index.readSection(names.blocks);
    const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength);
    const blocks = directory.byteLength / BLOCK_ENTRY_BYTES;
    if (!Number.isInteger(blocks)) throw new RangeError(`${clustering} block directory has a partial entry`);
    this.offset = new Float64Array(blocks);
    this.length = new Uint32Array(blocks);
    this.first = new Uint32Array(blocks);
    this.count = new Uint32Array(blocks);
    this.cluster = new Uint32Array(blocks);
    this.firstStartsAt = new Uint32Array(blocks);
    let expectedFirst = 0;
    for (let b = 0; b < blocks; b++) {
      const at = b * BLOCK_ENTRY_BYTES;
      this.offset[b] = view.getFloat64(at, true);
      this.length[b] = view.getUint32(at + 8, true);
      this.first[b] = view.getUint32(at + 12, true);
      this.count[b] = view.getUint32(at + 16, true);
      this.cluster[b] = view.getUint32(at + 20, true);
      this.firstStartsAt[b] = view.getUint32(at + 24, true);
      if (this.first[b] !== expectedFirst || this.count[b] === 0)
        throw new RangeError(`${clustering} block directory out of order`);
      expectedFirst += this.count[b]!;
    }
    this.records = expectedFirst;
    if (this.records !== expectedRecords)
      throw new RangeError(`${this.records} showtimes in ${clustering} blocks, the manifest says ${expectedRecords}`);
    this.chunkBlock = new Uint32Array(Math.ceil(this.records / (1 << CHUNK_SHIFT)));
    for (let k = 0, b = 0; k < this.chunkBlock.length; k++) {
      const record = k << CHUNK_SHIFT;
      while (this.first[b]! + this.count[b]! <= record) b++;
      this.chunkBlock[k] = b;
    }
    const clusters = index.readUint32Section(names.clusters);
    const n = clusters.length / (CLUSTER_ENTRY_BYTES / 4);
    this.clusterFirst = Uint32Array.from({ length: n }, (_, c) => clusters[4 * c]!);
    this.clusterCount = Uint32Array.from({ length: n }, (_, c) => clusters[4 * c + 1]!);
  }

  blockOf(record: number): number {
    if (!(record >= 0 && record < this.records)) throw new DecodeError(`record ${record} does not exist`);
    let b = this.chunkBlock[record >>> CHUNK_SHIFT]!;
    while (this.first[b]! + this.count[b]! <= record) b++;
    return b;
  }
}

/** Whether (start, length) pairs lie end to end from 0 to `count`. */
function partsCover(directory: Uint32Array, count: number): boolean {
  if (directory.length % 2 !== 0) return false;
  let next = 0;
  for (let i = 0; i < directory.length; i += 2) {
    if (directory[i] !== next) return false;
    next += directory[i + 1]!;
  }
  return next === count;
}

/** A showtime list: its clustering, how many, and the record numbers of positions [start, end). */
interface Positions {
  clustering: Clustering;
  length: number;
  records(start: number, end: number): Uint32Array;
  /**
   * Indexes [lo, hi] between which lies the first position whose start-time code is at least
   * `code`, found without decoding records (from block or chunk summaries); absent: [0, length].
   */
  narrow?(code: number): [lo: number, hi: number];
  /** The attribute-set summary of the list's chunks, and the chunk-aligned position of its index 0. */
  sets?: { summary: SetSummary; base: number };
}

/**
 * The distinct attribute-set codes of every SUMMARY_CHUNK positions of a list (encode-showtimes.ts
 * summarizeSets): a filter by attributes skips a chunk without reading its records.
 */
export class SetSummary {
  private readonly offsets: Uint32Array;
  private readonly lists: Uint8Array;

  constructor(bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const chunks = view.getUint32(0, true);
    if (4 * (chunks + 2) > bytes.length) throw new RangeError("attribute-set summary is cut short");
    this.offsets = new Uint32Array(chunks + 1);
    for (let c = 0; c <= chunks; c++) this.offsets[c] = view.getUint32(4 * (c + 1), true);
    this.lists = bytes.subarray(4 * (chunks + 2));
    if (this.offsets[chunks] !== this.lists.length)
      throw new RangeError("attribute-set summary does not cover its lists");
  }

  /** Whether chunk c holds a record of a set marked in `sets`. */
  mayHold(c: number, sets: Uint8Array): boolean {
    if (c + 1 >= this.offsets.length) return true;
    const reader = new ByteReader(this.lists, this.offsets[c]!, this.offsets[c + 1]!);
    for (let n = reader.varint(); n > 0; n--) if (sets[reader.varint()] === 1) return true;
    return false;
  }
}

export class ShowtimeStore {
  readonly count: number;
  private readonly directories: Record<Clustering, ClusterDirectory>;
  private readonly order: PackedSection;
  private readonly filmDirectory: Uint32Array;
  private readonly filmPositions: PackedSection;
  private readonly filmStarts: PackedSection;
  private readonly orderStarts: PackedSection;
  private readonly zoneDirectory: Uint32Array;
  private readonly zonePositions: PackedSection;
  private readonly zoneStarts: PackedSection;
  private readonly pairDirectory: Uint32Array;
  private readonly pairEntries: Section;
  private readonly pairPositions: PackedSection;
  private readonly idBuckets: Uint32Array;
  private readonly idRecords: PackedSection;
  private readonly idFingerprints: Section;
  private readonly decoder: ShowtimeDecoder;
  private readonly blocks: BlockCache<ShowtimeBlock>;
  /** The clustering and block the decoder is in, and the record it decoded last. */
  private currentClustering: Clustering | undefined;
  private current = -1;
  private currentRecord = -1;

  constructor(
    private readonly index: PagedFile,
    private readonly records: BlockFile,
    readonly dictionaries: SnapshotDictionaries,
    blockBytes: number,
    expectedCount: number,
    ends?: ShowtimeEnds,
  ) {
    this.directories = { byCinema: new ClusterDirectory(index, "byCinema", expectedCount) };
    this.blocks = new BlockCache(this.directories.byCinema.first.length, blockBytes);
    this.filmDirectory = index.readUint32Section(S.films);
    this.filmPositions = new PackedSection(index, index.section(S.filmPositions));
    this.filmStarts = new PackedSection(index, index.section(S.filmStarts));
    this.orderStarts = new PackedSection(index, index.section(S.orderStarts));
    this.zoneDirectory = index.readUint32Section(S.zones);
    this.zonePositions = new PackedSection(index, index.section(S.zonePositions));
    this.zoneStarts = new PackedSection(index, index.section(S.zoneStarts));
    this.count = expectedCount;
    this.order = new PackedSection(index, index.section(S.order));
    this.pairDirectory = index.readUint32Section(S.pairs);
    this.pairEntries = index.section(S.pairEntries);
    this.pairPositions = new PackedSection(index, index.section(S.pairPositions));
    this.idBuckets = index.readUint32Section(S.idBuckets);
    this.idRecords = new PackedSection(index, index.section(S.idRecords));
    this.idFingerprints = index.section(S.idFingerprints);
    if (
      this.order.count !== this.count ||
      this.idRecords.count !== this.count ||
      this.zonePositions.count !== this.count ||
      !partsCover(this.zoneDirectory, this.count)
    )
      throw new RangeError("position lists do not match the showtimes");
    this.decoder = new ShowtimeDecoder(dictionaries.fragments, undefined, ends);
  }

  /** A decoded block, from the cache or the disk. */
  private block(clustering: Clustering, b: number): ShowtimeBlock {
    // One clustering today: its block numbers are the cache's keys.
    const key = b;
    let block = this.blocks.get(key);
    if (!block) {
      const directory = this.directories[clustering];
      block = new ShowtimeBlock(this.records.read({ offset: directory.offset[b]!, length: directory.length[b]! }));
      if (block.count !== directory.count[b])
        throw new DecodeError(`block ${b} holds ${block.count} records, its directory says ${directory.count[b]}`);
      this.blocks.set(key, block);
    }
    return block;
  }

  /** Leaves the decoder on `record`: the next one in the same block costs one step, any other a seek. */
  private decode(clustering: Clustering, record: number): void {
    const d = this.decoder;
    const directory = this.directories[clustering];
    const b = this.current;
    if (
      clustering === this.currentClustering &&
      record === this.currentRecord + 1 &&
      b >= 0 &&
      record < directory.first[b]! + directory.count[b]!
    ) {
      d.next();
    } else {
      const found = directory.blockOf(record);
      d.seek(this.block(clustering, found), record - directory.first[found]!);
      d.next();
      this.current = found;
      this.currentClustering = clustering;
    }
    this.currentRecord = record;
  }

  /** Runs a read of the record blocks; a decoding failure is a corrupt snapshot, named as such. */
  private guarded<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      this.current = this.currentRecord = -1;
      this.currentClustering = undefined;
      if (error instanceof DecodeError || error instanceof RangeError)
        throw new SnapshotError(RECORDS_FILE, error.message);
      throw error;
    }
  }

  /**
   * Narrows a search by start-time code in records [first, first + length) of a cluster, on block and restart
   * summaries.
   */
  narrowCluster(clustering: Clustering, first: number, length: number, code: number): [number, number] {
    if (length === 0) return [0, 0];
    return this.guarded(() => {
      const directory = this.directories[clustering];
      const [b0, b1] = [directory.blockOf(first), directory.blockOf(first + length - 1)];
      const starts = directory.firstStartsAt;
      // The last block that starts before `code`; none: the answer is the cluster's first record.
      const b = lowerBound(b1 - b0 + 1, (i) => starts[b0 + i]! >= code) + b0 - 1;
      if (b < b0) return [0, 0];
      const block = this.block(clustering, b);
      const restarts = Math.ceil(block.count / block.restartInterval);
      const r = lowerBound(restarts, (i) => block.restartStartsAt(i) >= code) - 1;
      const lo = directory.first[b]! + Math.max(0, r) * block.restartInterval - first;
      const hi = directory.first[b]! + Math.min(block.count, (r + 1) * block.restartInterval) - first;
      return [Math.max(0, lo), Math.min(length, hi)];
    });
  }

  /** Narrows a search by start-time code in a position list's range [start, start + length), on its chunk summary. */
  narrowPositions(chunkStarts: PackedSection, start: number, length: number, code: number): [number, number] {
    const first = Math.ceil(start / SUMMARY_CHUNK);
    const end = Math.ceil((start + length) / SUMMARY_CHUNK);
    if (end <= first) return [0, length];
    // A binary search reading one chunk start a step: the whole list has a chunk per 64 showtimes.
    const m = lowerBound(end - first, (i) => chunkStarts.at(first + i) >= code) - 1;
    if (m < 0) return [0, Math.min(length, first * SUMMARY_CHUNK - start)];
    const lo = (first + m) * SUMMARY_CHUNK - start;
    return [lo, Math.min(length, lo + SUMMARY_CHUNK)];
  }

  /** The start-time code of a record. */
  startsAtOf(clustering: Clustering, record: number): number {
    return this.guarded(() => {
      this.decode(clustering, record);
      return this.decoder.startsAt;
    });
  }

  /** The id of a record, as a string. */
  idOf(clustering: Clustering, record: number): string {
    return this.guarded(() => {
      this.decode(clustering, record);
      return JSON.parse(`"${Buffer.from(this.decoder.idBytes()).toString("utf8")}"`) as string;
    });
  }

  /**
   * Renders records of a clustering as comma-separated JSON; returns the last one's sort key.
   * `embed`, when given, writes more members into each record (film, cinema) and folds their freshness.
   * `withoutProvenance`: each record as find_showtimes lists it (decision: MCP), its freshness folded all the same.
   */
  render(
    clustering: Clustering,
    records: ArrayLike<number>,
    out: PageBuffer,
    fold: FreshnessFold,
    embed?: Embed,
    withoutProvenance = false,
  ): EscapedSortKey | undefined {
    if (records.length === 0) return undefined;
    return this.guarded(() => {
      const d = this.decoder;
      const clusters = this.directories[clustering].cluster;
      const byCinema = clustering === "byCinema";
      for (let i = 0; i < records.length; i++) {
        if (i > 0) out.byte(0x2c);
        this.decode(clustering, records[i]!);
        const cluster = clusters[this.current]!;
        d.render(out, byCinema ? d.other : cluster, byCinema ? cluster : d.other, withoutProvenance);
        fold.add(d.observed, d.updated);
        if (embed) {
          out.length--; // the record's closing brace: the embedded members go before it
          embed(out, fold, byCinema ? d.other : cluster, byCinema ? cluster : d.other);
          out.byte(0x7d);
        }
      }
      return {
        head: [this.dictionaries.instantKeyOf(d.startsAt)],
        escapedId: Buffer.from(d.idBytes()).toString("utf8"),
      };
    });
  }

  /**
   * Visits every record in by-cinema order with its canonical JSON (as a list serves it) in `out`,
   * which is reset before each, and its escaped id's bytes, `id[0, idLength)`: one pass over the
   * blocks, for the build's history stage, which compares whole snapshots record by record.
   */
  forEachRendered(out: PageBuffer, visit: (record: number, id: Uint8Array, idLength: number) => void): void {
    const d = this.decoder;
    const clusters = this.directories.byCinema.cluster;
    this.guarded(() => {
      for (let r = 0; r < this.count; r++) {
        this.decode("byCinema", r);
        out.reset();
        d.render(out, d.other, clusters[this.current]!);
        visit(r, d.id.bytes, d.idLength);
      }
    });
  }

  /**
   * Renders records (by-cinema clustering, ascending) as changes of the feed,
   * `{"op":"upsert","type":"showtime","id":"…","record":{…}}`, comma-separated (a comma before the
   * first too when `comma`), and folds their freshness. Stops before a record that would take `out`
   * past `maxBytes`, unless it would be the page's first; returns how many were written.
   */
  renderUpserts(
    records: Uint32Array,
    count: number,
    comma: boolean,
    maxBytes: number,
    out: PageBuffer,
    fold: FreshnessFold,
  ): number {
    return this.guarded(() => {
      const d = this.decoder;
      const clusters = this.directories.byCinema.cluster;
      for (let i = 0; i < count; i++) {
        const before = out.length;
        const first = i === 0 && !comma;
        if (!first) out.byte(0x2c);
        this.decode("byCinema", records[i]!);
        out.copy(UPSERT_OPEN, 0, UPSERT_OPEN_END);
        out.copy(d.id, 0, d.idLength);
        out.copy(RECORD_OPEN, 0, RECORD_OPEN_END);
        d.render(out, d.other, clusters[this.current]!);
        out.byte(0x7d);
        if (!first && out.length > maxBytes) {
          out.length = before;
          return i;
        }
        fold.add(d.observed, d.updated);
      }
      return count;
    });
  }

  private summaries: Partial<Record<"order" | "films", SetSummary>> = {};

  /** A list's attribute-set summary, read on first use (only attribute filters need it). */
  private summary(kind: "order" | "films"): SetSummary {
    const known = this.summaries[kind];
    if (known) return known;
    const bytes = this.index.readSection(kind === "order" ? S.orderSets : S.filmSets);
    return (this.summaries[kind] = this.guarded(() => new SetSummary(bytes)));
  }

  /**
   * Visits records (by-cinema clustering, ascending) with the codes a tally needs: film, start time,
   * attribute set; each record decoded once, in order.
   */
  visitCodes(
    records: ArrayLike<number>,
    visit: (record: number, film: number, startsAt: number, set: number) => void,
  ): void {
    this.guarded(() => {
      const d = this.decoder;
      for (let i = 0; i < records.length; i++) {
        this.decode("byCinema", records[i]!);
        visit(records[i]!, d.other, d.startsAt, d.attributes);
      }
    });
  }

  /** The cinema of a record (by-cinema clustering): its block's cluster, found without decoding. */
  cinemaOf(record: number): number {
    const directory = this.directories.byCinema;
    return directory.cluster[directory.blockOf(record)]!;
  }

  /** How many showtimes cinema c has. */
  clusterSize(c: number): number {
    return this.directories.byCinema.clusterCount[c]!;
  }

  /** The attribute-set code of a record. */
  attributeSetOf(record: number): number {
    return this.guarded(() => {
      this.decode("byCinema", record);
      return this.decoder.attributes;
    });
  }

  /**
   * A record's start as an instant key (by-cinema clustering). Codes follow instant order, but one
   * instant written two ways has two codes: list order compares these keys, then ids.
   */
  instantKeyOfRecord(record: number): string {
    return this.dictionaries.instantKeyOf(this.startsAtOf("byCinema", record));
  }

  /** The record (in the by-cinema clustering) with this id, or undefined. */
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
      if (this.idOf("byCinema", record) === id) return record;
    }
    return undefined;
  }

  /** Bytes of decoded blocks held now. */
  get cachedBytes(): number {
    return this.blocks.size;
  }

  /** Each block's place and contents, in record order (tools and tests). */
  describeBlocks(
    clustering: Clustering,
  ): Array<{ firstRecord: number; count: number; cluster: number; bytes: number; attributeSets: number[] }> {
    const directory = this.directories[clustering];
    return Array.from(directory.first, (firstRecord, b) => {
      const block = this.guarded(() => this.block(clustering, b));
      return {
        firstRecord,
        count: directory.count[b]!,
        cluster: directory.cluster[b]!,
        bytes: block.end,
        attributeSets: block.attributeSets(),
      };
    });
  }

  /** Every showtime, in list order. */
  all(): ShowtimeList {
    const store = this;
    return this.list({
      clustering: "byCinema",
      length: this.count,
      records: (s, e) => this.order.range(s, e),
      narrow: (code) => this.narrowPositions(this.orderStarts, 0, this.count, code),
      sets: {
        get summary() {
          return store.summary("order");
        },
        base: 0,
      },
    });
  }

  /** A cluster's showtimes: contiguous records, already in list order. */
  private cluster(clustering: Clustering, c: number): ShowtimeList {
    const directory = this.directories[clustering];
    const first = directory.clusterFirst[c]!;
    const length = directory.clusterCount[c]!;
    return this.list({
      clustering,
      length,
      records: (s, e) => {
        const out = new Uint32Array(e - s);
        for (let i = 0; i < out.length; i++) out[i] = first + s + i;
        return out;
      },
      narrow: (code) => this.narrowCluster(clustering, first, length, code),
    });
  }

  /** The showtimes of cinema c. */
  ofCinema(c: number): ShowtimeList {
    return this.cluster("byCinema", c);
  }

  /** The showtimes of film f: a position list into the cinema clusters. */
  ofFilm(f: number): ShowtimeList {
    const store = this;
    const [start, length] = [this.filmDirectory[2 * f]!, this.filmDirectory[2 * f + 1]!];
    return this.list({
      clustering: "byCinema",
      length,
      records: (s, e) => this.filmPositions.range(start + s, start + e),
      narrow: (code) => this.narrowPositions(this.filmStarts, start, length, code),
      sets: {
        get summary() {
          return store.summary("films");
        },
        base: start,
      },
    });
  }

  /** How many zone keys the zone lists have: the zone table's zones plus one (no zone). */
  get zoneKeys(): number {
    return this.zoneDirectory.length / 2;
  }

  /** The showtimes at cinemas of zone key k (zone index + 1; 0, cinemas without a zone), in list order. */
  ofZone(k: number): ShowtimeList {
    const [start, length] = [this.zoneDirectory[2 * k]!, this.zoneDirectory[2 * k + 1]!];
    return this.list({
      clustering: "byCinema",
      length,
      records: (s, e) => this.zonePositions.range(start + s, start + e),
      narrow: (code) => this.narrowPositions(this.zoneStarts, start, length, code),
    });
  }

  /** The showtimes of film f at cinema c. */
  ofPair(c: number, f: number): ShowtimeList {
    const [entryStart, entryCount] = [this.pairDirectory[2 * c]!, this.pairDirectory[2 * c + 1]!];
    const entry = (i: number) => {
      const bytes = this.index.read(this.pairEntries.offset + 12 * (entryStart + i), 12);
      const view = new DataView(bytes.buffer, bytes.byteOffset, 12);
      return { film: view.getUint32(0, true), start: view.getUint32(4, true), count: view.getUint32(8, true) };
    };
    const at = lowerBound(entryCount, (i) => entry(i).film >= f);
    const found = at < entryCount ? entry(at) : undefined;
    if (!found || found.film !== f)
      return this.list({ clustering: "byCinema", length: 0, records: () => new Uint32Array(0) });
    const first = this.directories.byCinema.clusterFirst[c]!;
    return this.list({
      clustering: "byCinema",
      length: found.count,
      records: (s, e) => this.pairPositions.range(found.start + s, found.start + e).map((local) => first + local),
    });
  }

  private list(positions: Positions): ShowtimeList {
    return new ShowtimeList(this, positions);
  }
}

/** A showtime list: binary search by sort key, rendering through the store. */
export class ShowtimeList implements RecordList {
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

  /**
   * The first index at or after `j` whose summary chunk may hold a record of `sets` (an index past
   * chunks with none of them), or `j` itself when the list has no summary.
   */
  skipChunks(j: number, end: number, sets: Uint8Array): number {
    const summarized = this.positions.sets;
    if (!summarized) return j;
    const { summary, base } = summarized;
    while (j < end && !summary.mayHold(Math.floor((base + j) / SUMMARY_CHUNK), sets)) {
      j = (Math.floor((base + j) / SUMMARY_CHUNK) + 1) * SUMMARY_CHUNK - base;
    }
    return Math.min(j, end);
  }

  /** The end of the summary chunk holding index j (SUMMARY_CHUNK on when the list has no summary). */
  chunkEnd(j: number): number {
    const summarized = this.positions.sets;
    if (!summarized) return Math.min(this.length, j + SUMMARY_CHUNK);
    return Math.min(
      this.length,
      (Math.floor((summarized.base + j) / SUMMARY_CHUNK) + 1) * SUMMARY_CHUNK - summarized.base,
    );
  }

  /** Record numbers (by-cinema clustering) at list indexes [start, end). */
  recordsIn(start: number, end: number): ArrayLike<number> {
    return this.positions.records(start, end);
  }

  /** The first index whose start-time code is at least `code`: narrowed on summaries, then a few decodes. */
  firstAtOrAfter(code: number): number {
    const [lo, hi] = this.positions.narrow?.(code) ?? [0, this.length];
    const clustering = this.positions.clustering;
    return lo + lowerBound(hi - lo, (i) => this.store.startsAtOf(clustering, this.recordAt(lo + i)) >= code);
  }

  seek(seek: Seek): number {
    const dictionaries = this.store.dictionaries;
    const clustering = this.positions.clustering;
    let start = 0;
    if (seek.after) {
      // Past the cursor's record: a later instant, or the same instant and a greater id.
      const [instant, id] = seek.after as [string, string];
      const from = this.firstAtOrAfter(dictionaries.firstCodeAtOrAfter(instant));
      const to = this.firstAtOrAfter(dictionaries.firstCodeAfter(instant));
      start = from + lowerBound(to - from, (i) => this.store.idOf(clustering, this.recordAt(from + i)) > id);
    }
    if (seek.startsAfterKey !== undefined)
      start = Math.max(start, this.firstAtOrAfter(dictionaries.firstCodeAfter(seek.startsAfterKey)));
    return start;
  }

  render(start: number, end: number, out: PageBuffer, fold: FreshnessFold): EscapedSortKey | undefined {
    return this.store.render(this.positions.clustering, this.positions.records(start, end), out, fold);
  }
}
