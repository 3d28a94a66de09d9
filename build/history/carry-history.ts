/**
 * Stage 8: the changes history (decision: changes feed), carried forward from the snapshot in
 * service (`--previous`) or begun afresh. Each record of the new snapshot is compared with the
 * same id's record in the previous one by a digest of its canonical JSON: a new or changed record
 * is changed in a new generation; a record gone is a deletion in it, unless it is a showtime that
 * starts before the drop-before instant (mirrors drop those by the rule the response states). A
 * build that changes nothing keeps the generation, and with it every token.
 */
import { createHash } from "node:crypto";
import {
  type HistoryFacts,
  HISTORY_TYPES,
  type HistoryMeta,
  type HistoryType,
  SINGULAR,
} from "../../api/_core/format/layout/history.js";
import type { DataFileFacts, ListResource, Manifest } from "../../api/_core/format/layout/manifest.js";
import type { DataFile, HISTORY_FILE } from "../../api/_core/format/primitives/files.js";
import { escapeJson } from "../../api/_core/format/primitives/dictionary.js";
import { isMarketsFolder } from "../../api/_core/format/read/markets-folder.js";
import { openDataFiles, readManifest, Snapshot, SnapshotLists } from "../../api/_core/format/read/snapshot.js";
import { type Deletion, type HistoryContent, writeHistory } from "../encode/encode-history.js";
import type { SnapshotOutput } from "../encode/write-files.js";
import { HISTORY_READ, type RecordScan, scanRecords, scanShowtimesInWorker } from "./history-scan.js";
import { IdTable, idHashes } from "./id-table.js";

export interface HistoryOptions {
  /** The snapshot in service, whose history is carried forward; undefined: a new history. */
  previous?: string;
  /** A new history asked for (--new-history): said so in the report. */
  newHistory?: boolean;
  /** Why there is no previous snapshot, when the build knows better than "none was given" (a new market). */
  noPrevious?: string;
  keep: { generations: number; days: number };
  /** This build's time for the days rule (epoch seconds): deterministic, never the wall clock. */
  builtAt: number;
  /**
   * The instant (key) showtimes were left out before, as asked or carried (never the earliest start
   * kept): a gone showtime that starts before it is past, any other is a deletion.
   */
  dropBeforeKey?: string;
  /** Digests of the new content, from which a new history's id is made. */
  contentDigests: string[];
  /** Scan the previous snapshot's showtimes in a worker thread, beside this thread's scan of the new ones. */
  scanWorker?: boolean;
}

export interface HistoryReport {
  generation: number;
  /** Why the history began afresh, when it did. */
  restarted?: string;
  upserts: number;
  deletes: number;
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

/** Whether showtime `was` of the previous snapshot starts before the drop-before instant. */
function startsBefore(lists: SnapshotLists, was: number, dropBeforeKey: string): boolean {
  return lists.dictionaries.instantKeyOf(lists.showtimes.startsAtOf("byCinema", was)) < dropBeforeKey;
}

/**
 * The previous snapshot's manifest, or why a new history begins; throws when there is a previous
 * snapshot that cannot be read (a build with --check asks this alone).
 */
export function previousManifest(
  dir: string | undefined,
  newHistory = false,
  noPrevious = "no --previous snapshot",
): { manifest?: Manifest; restarted?: string } {
  if (newHistory) return { restarted: "--new-history" };
  if (dir === undefined) return { restarted: noPrevious };
  // Its markets' histories are theirs (decision: markets): none of them is this build's one snapshot.
  if (isMarketsFolder(dir)) return { restarted: "the previous snapshot is a multi-market folder" };
  try {
    return { manifest: readManifest(dir) };
  } catch (error) {
    const reason = (error as Error).message;
    // An older format carries no history this build can read: it begins afresh, and says so.
    if (/is snapshot format/.test(reason))
      return { restarted: `the previous snapshot ${reason.replace(/^manifest\.json: /, "")}` };
    throw new Error(`--previous ${dir}: ${reason}`);
  }
}

/** The previous snapshot's history, or why a new one begins. */
function openPrevious(options: HistoryOptions): { snapshot?: Snapshot; restarted?: string } {
  const dir = options.previous;
  const { manifest, restarted } = previousManifest(dir, options.newHistory, options.noPrevious);
  return manifest ? { snapshot: new Snapshot(manifest, dir!, HISTORY_READ) } : { restarted };
}

/** The oldest generation tokens may name: the last `generations` and every one built within `days` of the newest. */
function horizonOf(meta: Pick<HistoryMeta, "generation" | "builtAt" | "keep">): number {
  const byCount = meta.generation - meta.keep.generations;
  const newest = meta.builtAt.at(-1)![1];
  const recent = meta.builtAt.find(([, at]) => at >= newest - meta.keep.days * 86_400)?.[0] ?? meta.generation;
  return Math.max(0, Math.min(byCount, recent));
}

export async function carryHistory(
  lists: SnapshotLists,
  options: HistoryOptions,
): Promise<{ content: HistoryContent; report: HistoryReport }> {
  const { snapshot: previous, restarted } = openPrevious(options);
  try {
    if (!previous) return begin(lists, options, restarted!);
    const scans = await scanBoth(previous, options.previous!, lists, options.scanWorker ?? false);
    return carryFrom(previous, lists, options, scans);
  } finally {
    previous?.close();
  }
}

type Scans = Record<HistoryType, { previous: RecordScan; current: RecordScan }>;

/** Both snapshots' records scanned, the previous one's showtimes in a worker when asked and one can start. */
async function scanBoth(previous: Snapshot, dir: string, lists: SnapshotLists, worker: boolean): Promise<Scans> {
  const pending = worker ? await scanShowtimesInWorker(dir) : undefined;
  const scans = {} as Scans;
  try {
    for (const type of HISTORY_TYPES) {
      const current = scanRecords(lists, type);
      const earlier =
        type === "showtimes" && pending
          ? await pending.result().catch((error: Error) => {
              throw new Error(`--previous ${dir}: ${error.message}`);
            })
          : scanRecords(previous.lists, type);
      scans[type] = { previous: earlier, current };
    }
  } catch (error) {
    pending?.cancel();
    throw error;
  }
  return scans;
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
  scans: { previous: RecordScan; current: RecordScan },
): { changed: Uint32Array; deletes: Deletion[]; upserts: number; removed: number } {
  const old = previous.history;
  // The previous records by the hashes of their ids (ids are unique in a snapshot; id-table.ts says
  // why 96 bits of hash stand for the id).
  const { previous: then, current: now } = scans;
  const before = new IdTable(then.count);
  for (let i = 0; i < then.count; i++)
    before.add(then.hashes[3 * i]!, then.hashes[3 * i + 1]!, then.hashes[3 * i + 2]!, i);
  const digests = then.digests;
  const changedBefore = old.changedAtAll(type);
  // Kept deletions by id: one whose record is back (an upsert now) is no longer a deletion.
  const kept = old.deletes(type);
  const keptIds = new IdTable(kept.count);
  const hashes = new Uint32Array(3);
  for (let d = 0; d < kept.count; d++) {
    const id = JSON.parse(Buffer.from(kept.text(d)).toString("utf8")).id as string;
    const key = Buffer.from(type === "showtimes" ? escapeJson(id) : id);
    idHashes(key, key.length, hashes);
    keptIds.add(hashes[0]!, hashes[1]!, hashes[2]!, d);
  }
  const back = new Uint8Array(kept.count);
  const changed = new Uint32Array(countOf(lists, type));
  const present = new Uint8Array(digests.length);
  let upserts = 0;
  for (let i = 0; i < now.count; i++) {
    const a = now.hashes[3 * i]!;
    const b = now.hashes[3 * i + 1]!;
    const c = now.hashes[3 * i + 2]!;
    const match = before.head(a, b, c);
    for (let d = keptIds.head(a, b, c); d !== -1; d = keptIds.next(d)) back[d] = 1;
    const same = match !== -1 && digests[match] === now.digests[i];
    if (match !== -1) present[match] = 1;
    if (same) changed[i] = changedBefore[match]!;
    else {
      changed[i] = next;
      upserts++;
    }
  }
  const deletes: Deletion[] = [];
  for (let d = 0; d < kept.count; d++)
    if (!back[d]) deletes.push({ generation: kept.generation(d), text: kept.text(d) });
  let removed = 0;
  for (let r = 0; r < then.count; r++) {
    if (present[r]) continue;
    // A showtime that starts before the drop-before instant is left out, not deleted: every mirror
    // drops it by the rule, provided the version it holds is this one (unchanged since the horizon).
    // The requested instant, not the earliest start kept: a later build may keep a showtime moved
    // into the gap between them, and its feed's dropBefore then no longer covers one gone from
    // that gap (decision: changes feed).
    const dropped =
      type === "showtimes" && dropBeforeKey !== undefined && startsBefore(previous.lists, r, dropBeforeKey);
    if (dropped && changedBefore[r]! <= old.meta.horizon) continue;
    deletes.push({ generation: next, text: deletionAt(previous.lists, type, r) });
    removed++;
  }
  return { changed, deletes, upserts, removed };
}

function carryFrom(previous: Snapshot, lists: SnapshotLists, options: HistoryOptions, scans: Scans) {
  const old = previous.history.meta;
  const next = old.generation + 1;
  const changed = {} as HistoryContent["changed"];
  const deletes = {} as Record<HistoryType, Deletion[]>;
  let upserts = 0;
  let removed = 0;
  for (const type of HISTORY_TYPES) {
    const compared = compareType(previous, lists, type, next, options.dropBeforeKey, scans[type]);
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
export async function recordHistory(
  output: SnapshotOutput & { root: string },
  files: Record<Exclude<DataFile, typeof HISTORY_FILE>, DataFileFacts>,
  counts: Record<ListResource, number>,
  options: HistoryOptions,
): Promise<{ files: Record<DataFile, DataFileFacts>; facts: HistoryFacts; report: HistoryReport }> {
  const opened = openDataFiles(output.root, files, HISTORY_READ);
  try {
    const lists = new SnapshotLists(opened.index, opened.records, counts.showtimes, HISTORY_READ);
    const { content, report } = await carryHistory(lists, options);
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
