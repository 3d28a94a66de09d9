/**
 * Stage 8: the changes history (decision: changes feed), carried forward from the snapshot in
 * service (`--previous`) or begun afresh. Each record of the new snapshot is compared with the
 * same id's record in the previous one by a digest of its canonical JSON: a new or changed record
 * is changed in a new generation; a record gone is a deletion in it, unless it is a showtime that
 * starts before the drop-before instant (mirrors drop those by the rule the response states). A
 * build that changes nothing keeps the generation, and with it every token.
 */
import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import {
  type HistoryFacts,
  HISTORY_TYPES,
  type HistoryMeta,
  type HistoryType,
  SINGULAR,
} from "../api/_core/format/layout/history.js";
import type { DataFileFacts, ListResource, Manifest } from "../api/_core/format/layout/manifest.js";
import type { DataFile, HISTORY_FILE } from "../api/_core/format/primitives/files.js";
import { escapeJson } from "../api/_core/format/primitives/dictionary.js";
import { PageBuffer } from "../api/_core/format/primitives/page-buffer.js";
import { FreshnessFold } from "../api/_core/format/read/freshness.js";
import { openDataFiles, readManifest, Snapshot, SnapshotLists } from "../api/_core/format/read/snapshot.js";
import { type Deletion, type HistoryContent, writeHistory } from "../api/_core/format/write/encode-history.js";
import type { SnapshotOutput } from "../api/_core/format/write/write-snapshot.js";

export interface HistoryOptions {
  /** The snapshot in service, whose history is carried forward; undefined: a new history. */
  previous?: string;
  keep: { generations: number; days: number };
  /** This build's time for the days rule (epoch seconds): deterministic, never the wall clock. */
  builtAt: number;
  /** The earliest start kept (instant key), when showtimes before it were left out. */
  dropBeforeKey?: string;
  /** Digests of the new content, from which a new history's id is made. */
  contentDigests: string[];
}

export interface HistoryReport {
  generation: number;
  /** Why the history began afresh, when it did. */
  restarted?: string;
  upserts: number;
  deletes: number;
}

/** One record of a snapshot as the comparison needs it. */
interface Seen {
  /** The id as the map key (showtimes: its escaped text; others: the id). */
  key: string;
  /** A 53-bit digest of its canonical JSON. */
  digest: number;
  /** Showtimes: the start's instant key. */
  startsKey?: string;
}

/** crc32 and FNV-1a together: 53 bits, so a changed record passing for unchanged is a 1 in 2^53 event. */
function digestOf(bytes: Uint8Array): number {
  let fnv = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) fnv = Math.imul(fnv ^ bytes[i]!, 0x01000193);
  return crc32(bytes) * 2 ** 21 + ((fnv >>> 0) & 0x1fffff);
}

/** Record i of a type as the feed's deletion writes it. */
function deletionAt(lists: SnapshotLists, type: HistoryType, i: number): Uint8Array {
  let fields: string;
  if (type === "showtimes") {
    const id = escapeJson(lists.showtimes.idOf("byCinema", i));
    fields = `"id":"${id}","cinemaId":"${escapeJson(lists.cinemas.ids.text(lists.showtimes.cinemaOf(i)))}"`;
  } else {
    fields = `"id":"${escapeJson(lists[type].ids.text(i))}"`;
  }
  return new Uint8Array(Buffer.from(`{"op":"delete","type":"${SINGULAR[type]}",${fields}}`));
}

/** Every record of a type in store order, each rendered as the feed serves it, then digested. */
function* recordsOf(lists: SnapshotLists, type: HistoryType): Generator<Seen> {
  if (type !== "showtimes") {
    const store = lists[type];
    for (let i = 0; i < store.length; i++) yield { key: store.ids.text(i), digest: digestOf(store.records.entry(i)) };
    return;
  }
  const store = lists.showtimes;
  const out = new PageBuffer();
  const fold = new FreshnessFold(lists.dictionaries.observed, lists.dictionaries.updated);
  const one = new Uint32Array(1);
  for (let r = 0; r < store.count; r++) {
    out.reset();
    one[0] = r;
    const key = store.render("byCinema", one, out, fold)!;
    yield { key: key.escapedId, digest: digestOf(out.bytes.subarray(0, out.length)), startsKey: key.instantKey };
  }
}

/** The previous snapshot's history, or why a new one begins. */
function openPrevious(dir: string | undefined): { snapshot?: Snapshot; restarted?: string } {
  if (dir === undefined) return { restarted: "no --previous snapshot" };
  let manifest: Manifest;
  try {
    manifest = readManifest(dir);
  } catch (error) {
    const reason = (error as Error).message;
    // An older format carries no history this build can read: it begins afresh, and says so.
    if (/is snapshot format/.test(reason))
      return { restarted: `the previous snapshot ${reason.replace(/^manifest\.json: /, "")}` };
    throw new Error(`--previous ${dir}: ${reason}`);
  }
  return { snapshot: new Snapshot(manifest, dir, { pageBytes: 16 * 2 ** 20, blockBytes: 256 * 2 ** 20 }) };
}

/** The oldest generation tokens may name: the last `generations` and every one built within `days` of the newest. */
function horizonOf(meta: Pick<HistoryMeta, "generation" | "builtAt" | "keep">): number {
  const byCount = meta.generation - meta.keep.generations;
  const newest = meta.builtAt.at(-1)![1];
  const recent = meta.builtAt.find(([, at]) => at >= newest - meta.keep.days * 86_400)?.[0] ?? meta.generation;
  return Math.max(0, Math.min(byCount, recent));
}

export function carryHistory(
  lists: SnapshotLists,
  options: HistoryOptions,
): { content: HistoryContent; report: HistoryReport } {
  const { snapshot: previous, restarted } = openPrevious(options.previous);
  try {
    return previous ? carryFrom(previous, lists, options) : begin(lists, options, restarted!);
  } finally {
    previous?.close();
  }
}

function begin(lists: SnapshotLists, options: HistoryOptions, restarted: string) {
  const id = createHash("sha256")
    .update(`history\n${options.contentDigests.join("\n")}`)
    .digest("hex")
    .slice(0, 32);
  const meta: HistoryMeta = { id, generation: 0, horizon: 0, keep: options.keep, builtAt: [[0, options.builtAt]] };
  const changed = Object.fromEntries(
    HISTORY_TYPES.map((t) => [t, new Uint32Array(countOf(lists, t))]),
  ) as unknown as HistoryContent["changed"];
  const deletes = Object.fromEntries(HISTORY_TYPES.map((t) => [t, []])) as unknown as HistoryContent["deletes"];
  return { content: { meta, changed, deletes }, report: { generation: 0, restarted, upserts: 0, deletes: 0 } };
}

const countOf = (lists: SnapshotLists, type: HistoryType) =>
  type === "showtimes" ? lists.showtimes.count : lists[type].length;

/** What changed in one type between two snapshots: each new record's generation, and the deletions kept. */
function compareType(
  previous: Snapshot,
  lists: SnapshotLists,
  type: HistoryType,
  next: number,
  dropBeforeKey: string | undefined,
): { changed: Uint32Array; deletes: Deletion[]; upserts: number; removed: number } {
  const old = previous.history;
  // The previous records by id: their index; digests and start keys beside, in typed arrays.
  const before = new Map<string, number>();
  const digests = new Float64Array(countOf(previous.lists, type));
  const starts: string[] = [];
  let i = 0;
  for (const seen of recordsOf(previous.lists, type)) {
    before.set(seen.key, i);
    digests[i] = seen.digest;
    if (seen.startsKey !== undefined) starts[i] = seen.startsKey;
    i++;
  }
  const changed = new Uint32Array(countOf(lists, type));
  const present = new Uint8Array(digests.length);
  const keys = new Set<string>();
  let upserts = 0;
  i = 0;
  for (const seen of recordsOf(lists, type)) {
    const was = before.get(seen.key);
    keys.add(seen.key);
    if (was !== undefined) present[was] = 1;
    if (was !== undefined && digests[was] === seen.digest) changed[i] = old.changedAt(type, was);
    else {
      changed[i] = next;
      upserts++;
    }
    i++;
  }
  // Kept deletions, unless their record is back (an upsert now), then this build's.
  const deletes: Deletion[] = [];
  const kept = old.deletes(type);
  for (let d = 0; d < kept.count; d++) {
    const text = kept.text(d);
    const id = JSON.parse(Buffer.from(text).toString("utf8")).id as string;
    if (!keys.has(type === "showtimes" ? escapeJson(id) : id)) deletes.push({ generation: kept.generation(d), text });
  }
  let removed = 0;
  for (let was = 0; was < digests.length; was++) {
    if (present[was]) continue;
    // A showtime that starts before the drop-before instant is left out, not deleted: every mirror
    // drops it by the rule, provided the version it holds is this one (unchanged since the horizon).
    const dropped = type === "showtimes" && dropBeforeKey !== undefined && starts[was]! < dropBeforeKey;
    if (dropped && old.changedAt(type, was) <= old.meta.horizon) continue;
    deletes.push({ generation: next, text: deletionAt(previous.lists, type, was) });
    removed++;
  }
  return { changed, deletes, upserts, removed };
}

function carryFrom(previous: Snapshot, lists: SnapshotLists, options: HistoryOptions) {
  const old = previous.history.meta;
  const next = old.generation + 1;
  const changed = {} as HistoryContent["changed"];
  const deletes = {} as Record<HistoryType, Deletion[]>;
  let upserts = 0;
  let removed = 0;
  for (const type of HISTORY_TYPES) {
    const compared = compareType(previous, lists, type, next, options.dropBeforeKey);
    changed[type] = compared.changed;
    deletes[type] = compared.deletes;
    upserts += compared.upserts;
    removed += compared.removed;
  }
  // Nothing the feed shows changed: the same generation, the same tokens.
  if (upserts + removed === 0)
    return {
      content: { meta: old, changed, deletes },
      report: { generation: old.generation, upserts, deletes: removed },
    };
  const grown = {
    ...old,
    generation: next,
    keep: options.keep,
    builtAt: [...old.builtAt, [next, options.builtAt]] as HistoryMeta["builtAt"],
  };
  const horizon = horizonOf(grown);
  const meta: HistoryMeta = { ...grown, horizon, builtAt: grown.builtAt.filter(([g]) => g >= horizon) };
  for (const type of HISTORY_TYPES) deletes[type] = deletes[type].filter((d) => d.generation > horizon);
  return { content: { meta, changed, deletes }, report: { generation: next, upserts, deletes: removed } };
}

/** The history stage: compares the snapshot just written with the one in service, writes history.pages. */
export function recordHistory(
  output: SnapshotOutput & { root: string },
  files: Record<Exclude<DataFile, typeof HISTORY_FILE>, DataFileFacts>,
  counts: Record<ListResource, number>,
  options: HistoryOptions,
): { files: Record<DataFile, DataFileFacts>; facts: HistoryFacts; report: HistoryReport } {
  const opened = openDataFiles(output.root, files, { pageBytes: 16 * 2 ** 20, blockBytes: 256 * 2 ** 20 });
  try {
    const lists = new SnapshotLists(opened.index, opened.records, counts.showtimes, {
      pageBytes: 16 * 2 ** 20,
      blockBytes: 256 * 2 ** 20,
    });
    const { content, report } = carryHistory(lists, options);
    const written = writeHistory(output, content);
    return {
      files: { ...files, ...written },
      facts: { id: content.meta.id, generation: content.meta.generation },
      report,
    };
  } finally {
    opened.close();
  }
}
