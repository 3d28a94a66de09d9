/**
 * Stage 5: lay the content out in the snapshot format (index.pages, records.blocks), then render
 * the stored bodies (every default-limit page of the four unfiltered lists, every get-one of a
 * cinema or film) from those very files, with the request core's own page composer: a stored page
 * and the page the core would compose for the same request are the same bytes by construction.
 */
import { composeOne, composeRange } from "../../api/_core/compose/compose-page.js";
import { bindingOf } from "../../api/_core/tokens/cursor.js";
import type { SnapshotContent, TimeText } from "../../api/_core/format/layout/content.js";
import type { PlaceEntry } from "../encode/encode-places.js";
import type { BlockLayout } from "../encode/encode-showtimes.js";
import type { DataFile, HISTORY_FILE } from "../../api/_core/format/primitives/files.js";
import { FreshnessFold } from "../../api/_core/format/read/freshness.js";
import type { EscapedSortKey } from "../../api/_core/format/read/record-list.js";
import {
  LIST_RESOURCES,
  type DataFileFacts,
  type Freshness,
  type ListResource,
} from "../../api/_core/format/layout/manifest.js";
import { PageBuffer } from "../../api/_core/format/primitives/page-buffer.js";
import { openDataFiles, SnapshotLists } from "../../api/_core/format/read/snapshot.js";
import { bodyKeyOf } from "../../api/_core/format/layout/body-index.js";
import { openStoredBodies, writeLists } from "../encode/write-files.js";
import { DEFAULT_LIMIT } from "../../api/_core/endpoints/parse-request.js";
import { type BodyPool, createBodyPool } from "./body-pool.js";
import { BodyWriter } from "./body-writer.js";
import type { OutputWriter } from "../write/output-writer.js";

export interface RenderOptions {
  gzipLevel: number;
  /** Body worker threads; 0 encodes on the main thread. */
  gzipWorkers?: number;
  layout?: BlockLayout;
  onProgress?: (done: number, total: number) => void;
  /** Workers shared by several snapshots (a build's markets), left open; without it one is made and closed. */
  pool?: BodyPool;
  /** The market's id in a multi-market build: its stored pages' cursors bind it, as the server's do. */
  market?: string;
}

/** What the snapshot holds, once its data files are written: all the manifest needs but its id. */
export interface RenderedSnapshot {
  /** Every data file but the history, which the next stage writes. */
  files: Record<Exclude<DataFile, typeof HISTORY_FILE>, DataFileFacts>;
  counts: Record<ListResource, number>;
  freshness: Freshness;
}

/** The earliest observedAt and latest sourceUpdatedAt over every cinema, film and showtime (decision: freshness). */
function snapshotFreshness(content: SnapshotContent): Freshness {
  let observed: TimeText | undefined;
  let updated: TimeText | undefined;
  const add = (observedAt: TimeText | undefined, sourceUpdatedAt: TimeText | undefined) => {
    if (observedAt && (!observed || observedAt.key < observed.key)) observed = observedAt;
    if (sourceUpdatedAt && (!updated || sourceUpdatedAt.key > updated.key)) updated = sourceUpdatedAt;
  };
  for (const record of [...content.cinemas, ...content.films]) add(record.observed, record.updated);
  for (const showtime of content.showtimes) add(showtime.observedAt, showtime.sourceUpdatedAt);
  // An empty dataset has observed nothing; the epoch says so without inventing a time.
  if (!observed) return { observedAt: "1970-01-01T00:00:00Z" };
  return updated ? { observedAt: observed.text, sourceUpdatedAt: updated.text } : { observedAt: observed.text };
}

/** The raw sort key of a page's last record, from the escaped form the snapshot keeps. */
function rawKey(last: EscapedSortKey): string[] {
  return [...(last.head ?? []), last.escapedId].map((part) => JSON.parse(`"${part}"`) as string);
}

async function renderPages(
  lists: SnapshotLists,
  bodies: BodyWriter,
  resource: ListResource,
  fallback: Freshness,
  market: string | undefined,
): Promise<void> {
  const list = lists.list(resource);
  const binding = bindingOf(resource, [], market);
  const out = new PageBuffer();
  let after: string[] | null = null;
  for (let start = 0; start < list.length || start === 0; start += DEFAULT_LIMIT) {
    const page = composeRange(lists, list, start, Math.min(start + DEFAULT_LIMIT, list.length), binding, fallback, out);
    await bodies.add(bodyKeyOf({ kind: "page", resource, after }), page.body);
    if (!page.last) break;
    after = rawKey(page.last);
  }
}

async function renderGetOnes(lists: SnapshotLists, bodies: BodyWriter, resource: "cinemas" | "films"): Promise<void> {
  const store = lists[resource];
  for (let i = 0; i < store.length; i++) {
    const fold = new FreshnessFold(lists.dictionaries.observed, lists.dictionaries.updated);
    store.foldInto(i, fold);
    const body = composeOne(store.records.entry(i), fold.result({ observedAt: "1970-01-01T00:00:00Z" }));
    await bodies.add(bodyKeyOf({ kind: "one", resource, id: store.ids.text(i) }), body);
  }
}

export async function renderSnapshot(
  content: SnapshotContent,
  places: readonly PlaceEntry[],
  output: OutputWriter,
  options: RenderOptions,
): Promise<RenderedSnapshot> {
  const listFiles = writeLists(output, content, places, options.layout);
  const opened = openDataFiles(output.root, listFiles, { pageBytes: 64 * 2 ** 20, blockBytes: 256 * 2 ** 20 });
  const lists = new SnapshotLists(opened.index, opened.records, content.showtimes.length, {
    pageBytes: 64 * 2 ** 20,
    blockBytes: 256 * 2 ** 20,
  });
  const freshness = snapshotFreshness(content);
  const counts = Object.fromEntries(LIST_RESOURCES.map((r) => [r, content[r].length])) as Record<ListResource, number>;
  const total =
    LIST_RESOURCES.reduce((sum, r) => sum + Math.max(1, Math.ceil(counts[r] / DEFAULT_LIMIT)), 0) +
    counts.cinemas +
    counts.films;
  const stored = openStoredBodies(output);
  const pool = options.pool ?? (await createBodyPool(options.gzipLevel, options.gzipWorkers));
  try {
    const bodies = new BodyWriter(stored, pool, (count) => options.onProgress?.(count, total));
    for (const resource of LIST_RESOURCES) await renderPages(lists, bodies, resource, freshness, options.market);
    await renderGetOnes(lists, bodies, "cinemas");
    await renderGetOnes(lists, bodies, "films");
    await bodies.drain();
  } finally {
    if (!options.pool) await pool.close();
    opened.close();
  }
  return { files: { ...listFiles, ...stored.finish() }, counts, freshness };
}
