/**
 * Pairs records that the sort-key merge left unmatched on each side by their id. A showtime whose
 * startsAt moved keeps its id but changes its sort key ([instant, id]), so it is a change, not a
 * removal plus an addition. Only ids and positions are kept; past a limit they are spilled to
 * hash partitions on disk, so even a snapshot that replaced every showtime diffs in bounded memory.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type Side = "from" | "to";

export interface PairSink {
  moved(id: string, fromPosition: number, toPosition: number): void;
  removed(id: string, position: number): void;
  added(id: string, position: number): void;
}

interface Pending {
  side: Side;
  id: string;
  position: number;
}

/** Entries held in memory before spilling, and roughly per partition after (~100 bytes each). */
const MEMORY_ENTRIES = 250_000;
const FLUSH_CHARS = 256 * 1024;

/** FNV-1a over UTF-16 units: cheap and stable, only used to spread ids over partitions. */
function hashId(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function pairGroup(entries: Iterable<Pending>, sink: PairSink): void {
  const removed = new Map<string, number>();
  const added: Pending[] = [];
  for (const entry of entries) entry.side === "from" ? removed.set(entry.id, entry.position) : added.push(entry);
  const unpaired: Pending[] = [];
  for (const entry of added) {
    const fromPosition = removed.get(entry.id);
    if (fromPosition === undefined) unpaired.push(entry);
    else {
      removed.delete(entry.id);
      sink.moved(entry.id, fromPosition, entry.position);
    }
  }
  for (const [id, position] of removed) sink.removed(id, position);
  for (const entry of unpaired) sink.added(entry.id, entry.position);
}

function* readPartition(file: string): Generator<Pending> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return; // A partition nothing was hashed into was never created.
  }
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const space = line.indexOf(" ");
    yield {
      side: line[0] === "f" ? "from" : "to",
      position: Number(line.slice(1, space)),
      id: JSON.parse(line.slice(space + 1)) as string,
    };
  }
}

export class MovePairer {
  private pending: Pending[] = [];
  private spill: { dir: string; buffers: string[] } | undefined;

  /** `capacity` bounds how many entries may arrive in all (both sides' record counts). */
  constructor(
    private readonly capacity: number,
    private readonly memoryEntries = MEMORY_ENTRIES,
  ) {}

  add(side: Side, id: string, position: number): void {
    if (this.spill) {
      this.write({ side, id, position });
      return;
    }
    this.pending.push({ side, id, position });
    if (this.pending.length >= this.memoryEntries) this.startSpill();
  }

  /** Reports every pair and every record left alone, then removes any spill files. */
  finish(sink: PairSink): void {
    if (!this.spill) {
      pairGroup(this.pending, sink);
      return;
    }
    const { dir, buffers } = this.spill;
    try {
      buffers.forEach((_, i) => this.flush(i));
      for (let i = 0; i < buffers.length; i++) pairGroup(readPartition(path.join(dir, String(i))), sink);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Drops spill files without reporting (the diff failed part way). */
  discard(): void {
    if (this.spill) rmSync(this.spill.dir, { recursive: true, force: true });
  }

  private startSpill(): void {
    const partitions = Math.max(2, Math.ceil(this.capacity / this.memoryEntries));
    this.spill = {
      dir: mkdtempSync(path.join(tmpdir(), "cinema-diff-")),
      buffers: Array.from({ length: partitions }, () => ""),
    };
    for (const entry of this.pending) this.write(entry);
    this.pending = [];
  }

  private write(entry: Pending): void {
    const { buffers } = this.spill!;
    const i = hashId(entry.id) % buffers.length;
    buffers[i] += `${entry.side === "from" ? "f" : "t"}${entry.position} ${JSON.stringify(entry.id)}\n`;
    if (buffers[i]!.length >= FLUSH_CHARS) this.flush(i);
  }

  private flush(i: number): void {
    const { dir, buffers } = this.spill!;
    if (buffers[i] === "") return;
    appendFileSync(path.join(dir, String(i)), buffers[i]!);
    buffers[i] = "";
  }
}
