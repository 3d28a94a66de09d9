/**
 * Stage 5: render the snapshot: record packs (for composing any page), precomputed default-limit
 * pages of every list and view, and every get-one body, each as final response bytes.
 */
import { bindingOf, encodeCursor } from "../api/_core/cursor.js";
import { BODY_PACK, bodyKeyOf, packFiles, SNAPSHOT_FORMAT, VIEW_PACK, viewKeyOf, type ListResource, type ViewFilters } from "../api/_core/layout.js";
import { DEFAULT_LIMIT } from "../api/_core/route.js";
import { FreshnessFold, listBodyParts, oneBodyParts, type Freshness } from "../api/_core/render-body.js";
import { BodyWriter } from "./body-writer.js";
import { sortKeyOf, type BuildContext, type Entry, type OutputWriter } from "./context.js";
import { createBodyPool, type BodyPool } from "./body-pool.js";
import { KeyedPackWriter } from "./keyed-pack-writer.js";
import type { RecordArena } from "./record-arena.js";
import { RESOURCES, type Resource } from "./schemas.js";


/**
 * encodeMeta for entries, byte for byte, with the JSON of the shared provenance tuples made once
 * each: at 2M showtimes, stringifying them per record was a tenth of the build's main thread.
 */
export function metaEncoder(): (entry: Entry) => string {
  const tuples = new Map<[string, string], string>();
  const tuple = (value: [string, string] | undefined) => {
    if (value === undefined) return "null";
    let json = tuples.get(value);
    if (json === undefined) tuples.set(value, (json = JSON.stringify(value)));
    return json;
  };
  return (entry) => `[${JSON.stringify(sortKeyOf(entry))},${tuple(entry.observed)},${tuple(entry.updated)}]`;
}

/** Records written between two checks for idle body workers: ~10 ms of main-thread work. */
const PACK_SLICE = 2048;

/**
 * Writes a resource's records and meta in list order, with offset tables for random access, a
 * slice at a time: each yield is a point where the render may feed the body workers again.
 */
function* writePack(output: OutputWriter, arena: RecordArena, resource: ListResource, entries: Entry[]): Generator<void, void, void> {
  const files = packFiles(resource);
  const records = output.openAppend(files.records);
  const meta = output.openAppend(files.meta);
  const recordOffsets = new Float64Array(entries.length + 1);
  const metaOffsets = new Float64Array(entries.length + 1);
  let recordEnd = 0;
  let metaEnd = 0;
  const encode = metaEncoder();
  for (let i = 0; i < entries.length; i++) {
    if (i > 0 && i % PACK_SLICE === 0) yield;
    const entry = entries[i]!;
    const metaBytes = Buffer.from(encode(entry));
    const recordBytes = arena.bytes(entry.record);
    records.append(recordBytes);
    meta.append(metaBytes);
    recordOffsets[i + 1] = recordEnd += recordBytes.length;
    metaOffsets[i + 1] = metaEnd += metaBytes.length;
  }
  records.close();
  meta.close();
  output.write(files.recordsIndex, Buffer.from(recordOffsets.buffer));
  output.write(files.metaIndex, Buffer.from(metaOffsets.buffer));
}

/** Steps through generators one slice per call; false once all are done. */
function sliced(steps: Array<Generator<void, void, void>>): () => boolean {
  return () => {
    while (steps.length > 0) {
      if (!steps[0]!.next().done) return true;
      steps.shift();
    }
    return false;
  };
}

/** Freshness over every cinema, film and showtime: what responses without provenance carry. */
function snapshotFreshness(ctx: BuildContext): Freshness {
  const fold = new FreshnessFold();
  for (const resource of ["cinemas", "films", "showtimes"] as const) for (const e of ctx.entries[resource]) fold.add(e);
  // An empty dataset has observed nothing; the epoch says so without inventing a time.
  return fold.result({ observedAt: "1970-01-01T00:00:00Z" });
}

interface PageRun {
  resource: ListResource;
  filters: ViewFilters;
  entries: Entry[];
  positions: number[] | undefined;
  fallback: Freshness;
}

/** Renders every default-limit page of one list or view. */
async function writePages(bodies: BodyWriter, run: PageRun): Promise<void> {
  const length = run.positions?.length ?? run.entries.length;
  const at = (i: number) => run.entries[run.positions ? run.positions[i]! : i]!;
  const binding = bindingOf(run.resource, run.filters);
  for (let start = 0; start < length || start === 0; start += DEFAULT_LIMIT) {
    const end = Math.min(start + DEFAULT_LIMIT, length);
    const fold = new FreshnessFold();
    const records: number[] = [];
    for (let i = start; i < end; i++) {
      records.push(at(i).record);
      fold.add(at(i));
    }
    const next = end < length ? encodeCursor({ binding, after: sortKeyOf(at(end - 1)) }) : null;
    const after = start === 0 ? null : sortKeyOf(at(start - 1));
    const body = listBodyParts(records, next, fold.result(run.fallback));
    await bodies.add(bodyKeyOf({ kind: "page", resource: run.resource, filters: run.filters, after }), body);
    if (length === 0) break;
  }
}

async function writeGetOnes(bodies: BodyWriter, resource: "cinemas" | "films", entries: Entry[]): Promise<void> {
  for (const entry of entries) {
    const fold = new FreshnessFold();
    fold.add(entry);
    const body = oneBodyParts(entry.record, fold.result({ observedAt: "1970-01-01T00:00:00Z" }));
    await bodies.add(bodyKeyOf({ kind: "one", resource, id: entry.id }), body);
  }
}

function pageCount(length: number): number {
  return Math.max(1, Math.ceil(length / DEFAULT_LIMIT));
}

async function renderAll(ctx: BuildContext, pool: BodyPool, freshness: Freshness): Promise<void> {
  const base = { fallback: freshness, positions: undefined, filters: {} };
  const total =
    RESOURCES.reduce((sum, r) => sum + pageCount(ctx.entries[r].length), 0) +
    ctx.views.reduce((sum, v) => sum + pageCount(v.positions.length), 0) +
    ctx.entries.cinemas.length +
    ctx.entries.films.length;
  const bodyPack = new KeyedPackWriter(ctx.output, BODY_PACK);
  const viewPack = new KeyedPackWriter(ctx.output, VIEW_PACK);
  // The record packs (a sixth of the main thread's work at 2M) are written in slices while the
  // body workers have a queue to work through, instead of up front with the workers idle.
  const packSlice = sliced(RESOURCES.map((resource) => writePack(ctx.output, ctx.arena, resource, ctx.entries[resource])));
  const bodies = new BodyWriter(bodyPack, pool, (count) => ctx.onProgress?.("render bodies", count, total), packSlice);
  for (const resource of RESOURCES) await writePages(bodies, { ...base, resource, entries: ctx.entries[resource] });
  for (const view of ctx.views) {
    viewPack.add(viewKeyOf(view.filters), Buffer.from(Uint32Array.from(view.positions).buffer));
    await writePages(bodies, { ...base, resource: "showtimes", entries: ctx.entries.showtimes, positions: view.positions, filters: view.filters });
  }
  await writeGetOnes(bodies, "cinemas", ctx.entries.cinemas);
  await writeGetOnes(bodies, "films", ctx.entries.films);
  while (packSlice());
  await bodies.drain();
  bodyPack.finish();
  viewPack.finish();
}

export async function renderSnapshot(ctx: BuildContext): Promise<void> {
  const freshness = snapshotFreshness(ctx);
  const pool = await createBodyPool(ctx.gzipLevel, ctx.arena, ctx.gzipWorkers);
  try {
    await renderAll(ctx, pool, freshness);
  } finally {
    await pool.close();
  }
  const counts = Object.fromEntries(RESOURCES.map((r) => [r, ctx.entries[r].length])) as Record<Resource, number>;
  ctx.manifest = { format: SNAPSHOT_FORMAT, snapshotId: "", defaultLimit: DEFAULT_LIMIT, counts, freshness };
}
