/**
 * Lays out the showtimes twice, clustered by cinema and by film, each cluster in list order, in
 * compact blocks (layout/showtime-record.ts); then the position lists that serve the other orders (the
 * whole list, each cinema+film pair), an id index, and per-chunk summaries of attribute sets for
 * filters. Record numbers count records in the by-cinema clustering.
 */
import { deflateRawSync } from "node:zlib";
import type { BlockFileWriter } from "../../api/_core/format/primitives/block-file.js";
import { ByteWriter } from "../../api/_core/format/primitives/bytes.js";
import { BlockType } from "../../api/_core/format/primitives/checksum.js";
import type { ShowtimeRecord, SnapshotContent, TimeText } from "../../api/_core/format/layout/content.js";
import { escapeJson } from "../../api/_core/format/primitives/dictionary.js";
import { resolve, type ShowtimeCodes } from "./encode-dictionaries.js";
import {
  clusteringSections,
  SHOWTIME_SECTIONS,
  SUMMARY_CHUNK,
  type Clustering,
} from "../../api/_core/format/layout/sections.js";
import { bucketCountFor, fingerprintOf, hashId } from "../../api/_core/format/primitives/id-hash.js";
import { encodePacked } from "../../api/_core/format/primitives/packed.js";
import { EXTENSION_FIELDS, type ShowtimeRow } from "../../api/_core/format/layout/showtime-record.js";
import { encodeDays } from "./encode-days.js";
import { encodeShowtimeBlock } from "./encode-showtime-block.js";
import { zoneKeysOfCinemas } from "./encode-zones.js";

export interface BlockLayout {
  /** Encoded bytes a block aims at; records are never split. */
  targetBytes: number;
  restartInterval: number;
  /** Store blocks deflated (when that makes them smaller). */
  deflate: boolean;
}

export const DEFAULT_BLOCK_LAYOUT: BlockLayout = { targetBytes: 4096, restartInterval: 4, deflate: true };

const NO_EXTENSIONS: readonly undefined[] = [];

/**
 * A showtime's extension values (layout/showtime-record.ts) as canonical JSON, by bit: the bytes
 * JSON.stringify writes of the validated value. A record without any shares NO_EXTENSIONS.
 */
function extensionsOf(showtime: ShowtimeRecord): ReadonlyArray<Uint8Array | undefined> {
  let values: Array<Uint8Array | undefined> | undefined;
  for (let bit = 0; bit < EXTENSION_FIELDS.length; bit++) {
    const field = EXTENSION_FIELDS[bit]!;
    const value = (showtime as unknown as Record<string, unknown>)[field.name];
    if (value === undefined) continue;
    values ??= Array.from(EXTENSION_FIELDS, () => undefined);
    values[bit] = Buffer.from(JSON.stringify(field.type === "dateTime" ? (value as TimeText).text : value));
  }
  return values ?? NO_EXTENSIONS;
}

/** A rough encoded size of a row after `previous`, to cut blocks near the target. */
function rowCost(row: ShowtimeRow, previous: ShowtimeRow | undefined): number {
  const rest = (a: Uint8Array, b: Uint8Array | undefined) => {
    if (!b) return a.length;
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return a.length - i;
  };
  let cost = 8 + rest(row.id, previous?.id) + rest(row.url, previous?.url) + rest(row.externalId, previous?.externalId);
  // Extension values are written whole: a long one fills its block alone, and restart offsets stay 16-bit.
  for (const value of row.extensions) cost += value?.length ?? 0;
  return cost;
}

/** List positions grouped by a key (counting sort, stable: list order within a group). */
function groupPositions(
  n: number,
  groups: number,
  keyOf: (p: number) => number,
): { starts: Uint32Array; positions: Uint32Array } {
  const starts = new Uint32Array(groups + 1);
  for (let p = 0; p < n; p++) starts[keyOf(p) + 1]!++;
  for (let g = 0; g < groups; g++) starts[g + 1]! += starts[g]!;
  const next = starts.slice(0, groups);
  const positions = new Uint32Array(n);
  for (let p = 0; p < n; p++) positions[next[keyOf(p)]!++] = p;
  return { starts, positions };
}

/**
 * The start-time code of the first record of each chunk of SUMMARY_CHUNK positions: a binary
 * search by time narrows to one chunk on these, then decodes at most a chunk's worth of records.
 */
function chunkStarts(records: ArrayLike<number>, startsAtOfRecord: Int32Array): Uint8Array {
  const codes = Array.from(
    { length: Math.ceil(records.length / SUMMARY_CHUNK) },
    (_, c) => startsAtOfRecord[records[c * SUMMARY_CHUNK]!]!,
  );
  return encodePacked(codes);
}

/** For each chunk of SUMMARY_CHUNK values, the distinct attribute-set codes of their records. */
function summarizeSets(records: ArrayLike<number>, setOfRecord: Int32Array): Uint8Array {
  const chunks = Math.ceil(records.length / SUMMARY_CHUNK);
  const lists = new ByteWriter();
  const offsets = new ByteWriter(4 * (chunks + 2));
  offsets.u32(chunks);
  for (let c = 0; c < chunks; c++) {
    offsets.u32(lists.length);
    const sets = new Set<number>();
    for (let i = c * SUMMARY_CHUNK; i < Math.min(records.length, (c + 1) * SUMMARY_CHUNK); i++)
      sets.add(setOfRecord[records[i]!]!);
    const sorted = [...sets].sort((a, b) => a - b);
    lists.varint(sorted.length);
    for (const code of sorted) lists.varint(code);
  }
  offsets.u32(lists.length);
  offsets.raw(lists.finish());
  return offsets.finish();
}

/** One clustering's records, block by block, and its directories. */
interface ClusterInput {
  clustering: Clustering;
  /** List positions grouped by cluster. */
  groups: { starts: Uint32Array; positions: Uint32Array };
  /** The record's reference the cluster does not imply, by list position. */
  otherOf: Uint32Array;
}

function encodeClustering(
  input: ClusterInput,
  rowOf: (p: number, other: number) => ShowtimeRow,
  records: BlockFileWriter,
  layout: BlockLayout,
): Map<string, Uint8Array> {
  const { starts, positions } = input.groups;
  const blockDirectory = new ByteWriter();
  const clusterDirectory = new ByteWriter();
  let blockCount = 0;
  const writeBlock = (rows: ShowtimeRow[], firstRecord: number, cluster: number) => {
    const payload = encodeShowtimeBlock(rows, layout.restartInterval);
    const deflated = layout.deflate ? deflateRawSync(payload, { level: 6 }) : undefined;
    const address =
      deflated && deflated.length < payload.length
        ? records.append(deflated, BlockType.deflate)
        : records.append(payload, BlockType.raw);
    blockDirectory.f64(address.offset);
    blockDirectory.u32(address.length);
    blockDirectory.u32(firstRecord);
    blockDirectory.u32(rows.length);
    blockDirectory.u32(cluster);
    blockDirectory.u32(rows[0]!.startsAt);
    blockDirectory.u32(0);
    blockCount++;
  };
  for (let c = 0; c + 1 < starts.length; c++) {
    const [first, end] = [starts[c]!, starts[c + 1]!];
    const firstBlock = blockCount;
    let rows: ShowtimeRow[] = [];
    let bytes = 0;
    let blockStart = first;
    for (let r = first; r < end; r++) {
      const p = positions[r]!;
      const row = rowOf(p, input.otherOf[p]!);
      let cost = rowCost(row, rows.at(-1));
      if (rows.length > 0 && bytes + cost > layout.targetBytes) {
        writeBlock(rows, blockStart, c);
        rows = [];
        bytes = 0;
        blockStart = r;
        cost = rowCost(row, undefined);
      }
      bytes += cost;
      rows.push(row);
    }
    if (rows.length > 0) writeBlock(rows, blockStart, c);
    clusterDirectory.u32(first);
    clusterDirectory.u32(end - first);
    clusterDirectory.u32(firstBlock);
    clusterDirectory.u32(blockCount - firstBlock);
  }
  const names = clusteringSections(input.clustering);
  return new Map([
    [names.blocks, blockDirectory.finish()],
    [names.clusters, clusterDirectory.finish()],
  ]);
}

export function encodeShowtimes(
  content: SnapshotContent,
  codes: ShowtimeCodes,
  records: BlockFileWriter,
  layout: BlockLayout = DEFAULT_BLOCK_LAYOUT,
): Map<string, Uint8Array> {
  const { showtimes, cinemas, films } = content;
  const n = showtimes.length;
  const cinemaIndex = new Map(cinemas.map((c, i) => [c.id, i]));
  const filmIndex = new Map(films.map((f, i) => [f.id, i]));
  const cinemaOf = Uint32Array.from(showtimes, (s) => resolve(cinemaIndex, s.cinemaId, "cinema"));
  const filmOf = Uint32Array.from(showtimes, (s) => resolve(filmIndex, s.filmId, "film"));
  // Record numbers count records in the by-cinema clustering; recordOf[p] is that of list position p.
  const byCinema = groupPositions(n, cinemas.length, (p) => cinemaOf[p]!);
  const listPositionOf = byCinema.positions;
  const recordOf = new Uint32Array(n);
  for (let r = 0; r < n; r++) recordOf[listPositionOf[r]!] = r;
  const setOfRecord = new Int32Array(n);
  const startsAtOfRecord = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    setOfRecord[r] = codes.attributes[listPositionOf[r]!]!;
    startsAtOfRecord[r] = codes.startsAt[listPositionOf[r]!]!;
  }

  const rowOf = (p: number, other: number): ShowtimeRow => {
    const s = showtimes[p]!;
    return {
      startsAt: codes.startsAt[p]!,
      other,
      attributes: codes.attributes[p]!,
      screen: codes.screen[p]!,
      observed: codes.observed[p]!,
      provider: codes.provider[p]!,
      updated: codes.updated[p]!,
      id: Buffer.from(escapeJson(s.id)),
      url: s.bookingUrl === undefined ? new Uint8Array(0) : Buffer.from(escapeJson(s.bookingUrl)),
      externalId: Buffer.from(escapeJson(s.externalId)),
      extensions: extensionsOf(s),
    };
  };

  const sections = new Map<string, Uint8Array>();
  const add = (more: Map<string, Uint8Array> | Record<string, Uint8Array>) =>
    (more instanceof Map ? [...more] : Object.entries(more)).forEach(([name, bytes]) => sections.set(name, bytes));
  add(encodeClustering({ clustering: "byCinema", groups: byCinema, otherOf: filmOf }, rowOf, records, layout));
  sections.set(SHOWTIME_SECTIONS.order, encodePacked(recordOf, Math.max(0, n - 1)));
  sections.set(SHOWTIME_SECTIONS.orderSets, summarizeSets(recordOf, setOfRecord));
  sections.set(SHOWTIME_SECTIONS.orderStarts, chunkStarts(recordOf, startsAtOfRecord));
  // A film's showtimes, as record numbers in list order.
  const byFilm = groupPositions(n, films.length, (p) => filmOf[p]!);
  const filmRecords = byFilm.positions.map((p) => recordOf[p]!);
  const filmDirectory = new ByteWriter(8 * films.length);
  for (let f = 0; f < films.length; f++) {
    filmDirectory.u32(byFilm.starts[f]!);
    filmDirectory.u32(byFilm.starts[f + 1]! - byFilm.starts[f]!);
  }
  sections.set(SHOWTIME_SECTIONS.films, filmDirectory.finish());
  sections.set(SHOWTIME_SECTIONS.filmPositions, encodePacked(filmRecords, Math.max(0, n - 1)));
  sections.set(SHOWTIME_SECTIONS.filmSets, summarizeSets(filmRecords, setOfRecord));
  sections.set(SHOWTIME_SECTIONS.filmStarts, chunkStarts(filmRecords, startsAtOfRecord));
  add(encodeZoneLists(content, cinemaOf, recordOf, startsAtOfRecord));
  add(encodePairs(cinemas.length, filmOf, byCinema.starts, listPositionOf));
  add(encodeIdIndex(content, recordOf));
  add(encodeDays(content, { listPositionOf, clusterStarts: byCinema.starts, filmOf, startsAtOfRecord }));
  return sections;
}

/**
 * The whole list split by the time zone of each showtime's cinema (key: zone index + 1; 0, no
 * zone), each part in list order: a local day is one window of each part (decision: local dates),
 * so a day across every cinema merges a window per zone instead of reading the neighbouring
 * zones' evenings and throwing them away.
 */
function encodeZoneLists(
  content: SnapshotContent,
  cinemaOf: Uint32Array,
  recordOf: Uint32Array,
  startsAtOfRecord: Int32Array,
): Record<string, Uint8Array> {
  const keyOfCinema = zoneKeysOfCinemas(content);
  const keys = content.zones.zones.length + 1;
  const n = recordOf.length;
  const byZone = groupPositions(n, keys, (p) => keyOfCinema[cinemaOf[p]!]!);
  const zoneRecords = byZone.positions.map((p) => recordOf[p]!);
  const directory = new ByteWriter(8 * keys);
  for (let k = 0; k < keys; k++) {
    directory.u32(byZone.starts[k]!);
    directory.u32(byZone.starts[k + 1]! - byZone.starts[k]!);
  }
  return {
    [SHOWTIME_SECTIONS.zones]: directory.finish(),
    [SHOWTIME_SECTIONS.zonePositions]: encodePacked(zoneRecords, Math.max(0, n - 1)),
    [SHOWTIME_SECTIONS.zoneStarts]: chunkStarts(zoneRecords, startsAtOfRecord),
  };
}

/** Per cinema, per film showing there: the film's showtimes as indexes into the cinema's cluster. */
function encodePairs(
  cinemas: number,
  filmOf: Uint32Array,
  clusterStarts: Uint32Array,
  listPositionOf: Uint32Array,
): Record<string, Uint8Array> {
  const directory = new ByteWriter(8 * cinemas);
  const entries = new ByteWriter();
  const local: number[] = [];
  let entryCount = 0;
  let largestCluster = 0;
  for (let c = 0; c < cinemas; c++) {
    const [first, end] = [clusterStarts[c]!, clusterStarts[c + 1]!];
    largestCluster = Math.max(largestCluster, end - first);
    const byFilm = new Map<number, number[]>();
    for (let r = first; r < end; r++) {
      const film = filmOf[listPositionOf[r]!]!;
      let list = byFilm.get(film);
      if (!list) byFilm.set(film, (list = []));
      list.push(r - first);
    }
    const filmsHere = [...byFilm.keys()].sort((a, b) => a - b);
    directory.u32(entryCount);
    directory.u32(filmsHere.length);
    for (const film of filmsHere) {
      const list = byFilm.get(film)!;
      entries.u32(film);
      entries.u32(local.length);
      entries.u32(list.length);
      for (const index of list) local.push(index);
      entryCount++;
    }
  }
  return {
    [SHOWTIME_SECTIONS.pairs]: directory.finish(),
    [SHOWTIME_SECTIONS.pairEntries]: entries.finish(),
    [SHOWTIME_SECTIONS.pairPositions]: encodePacked(local, Math.max(0, largestCluster - 1)),
  };
}

/** Buckets of record numbers by the hash of their id, each entry with a 16-bit fingerprint. */
function encodeIdIndex(content: SnapshotContent, recordOf: Uint32Array): Record<string, Uint8Array> {
  const n = content.showtimes.length;
  const buckets = bucketCountFor(n);
  const hashes = Uint32Array.from(content.showtimes, (s) => hashId(s.id));
  const grouped = groupPositions(n, buckets, (p) => hashes[p]! & (buckets - 1));
  const starts = new ByteWriter(4 * (buckets + 2));
  starts.u32(buckets);
  for (let b = 0; b <= buckets; b++) starts.u32(grouped.starts[b]!);
  const fingerprints = new Uint16Array(n);
  grouped.positions.forEach((p, i) => (fingerprints[i] = fingerprintOf(hashes[p]!)));
  return {
    [SHOWTIME_SECTIONS.idBuckets]: starts.finish(),
    [SHOWTIME_SECTIONS.idRecords]: encodePacked(
      grouped.positions.map((p) => recordOf[p]!),
      Math.max(0, n - 1),
    ),
    [SHOWTIME_SECTIONS.idFingerprints]: new Uint8Array(fingerprints.buffer),
  };
}
