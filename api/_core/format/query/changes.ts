/**
 * A page of the changes feed (decision: changes feed): what changed after a generation (or, for a
 * full copy, every record), in an order that never leaves a showtime pointing at a missing film,
 * cinema or attribute: upserts of attributes, cinemas and films; deletions of showtimes, then
 * their upserts; then deletions of films, cinemas and attributes. A position is a phase and an
 * index in it (a record in store order, or a deletion); a page runs from a position to at most
 * `limit` changes and `maxBytes`, and says where the next change is, if any.
 */
import type { HistoryType } from "../layout/history.js";
import type { FreshnessFold } from "../read/freshness.js";
import type { PageBuffer } from "../primitives/page-buffer.js";
import type { SnapshotHistory } from "../read/snapshot-history.js";
import type { SnapshotLists } from "../read/snapshot.js";

const PHASES: ReadonlyArray<{ type: HistoryType; op: "upsert" | "delete" }> = [
  { type: "attributes", op: "upsert" },
  { type: "cinemas", op: "upsert" },
  { type: "films", op: "upsert" },
  { type: "showtimes", op: "delete" },
  { type: "showtimes", op: "upsert" },
  { type: "films", op: "delete" },
  { type: "cinemas", op: "delete" },
  { type: "attributes", op: "delete" },
];
export const PHASE_COUNT = PHASES.length;
const SHOWTIME_UPSERTS = PHASES.findIndex(({ type, op }) => type === "showtimes" && op === "upsert");

export interface FeedPosition {
  phase: number;
  index: number;
}

export interface FeedPage {
  /** Changes written. */
  count: number;
  /** Where the next change is; undefined when the page is the last. */
  next?: FeedPosition;
}

const SINGULAR = { attributes: "attribute", cinemas: "cinema", films: "film", showtimes: "showtime" } as const;

export class ChangesFeed {
  constructor(
    private readonly lists: SnapshotLists,
    private readonly history: SnapshotHistory,
    /** Changes after this generation; undefined: every record (a full copy). */
    private readonly since: number | undefined,
  ) {}

  private countOf(type: HistoryType): number {
    return type === "showtimes" ? this.lists.showtimes.count : this.lists[type].length;
  }

  /** The first change at or after `at`, or undefined when none is left. */
  find(at: FeedPosition): FeedPosition | undefined {
    for (let phase = at.phase; phase < PHASES.length; phase++) {
      const { type, op } = PHASES[phase]!;
      const from = phase === at.phase ? at.index : 0;
      let index: number;
      let count: number;
      if (op === "upsert") {
        count = this.countOf(type);
        index = this.since === undefined ? from : this.history.nextChangedAfter(type, from, this.since);
      } else {
        // A full copy has nothing to delete.
        if (this.since === undefined) continue;
        const deletes = this.history.deletes(type);
        count = deletes.count;
        index = Math.max(from, deletes.firstAfter(this.since));
      }
      if (index < count) return { phase, index };
    }
    return undefined;
  }

  /** Writes the upsert of a cinema, film or attribute. */
  private writeUpsert(at: FeedPosition, out: PageBuffer, fold: FreshnessFold): void {
    const { type } = PHASES[at.phase]!;
    const store = this.lists[type as Exclude<HistoryType, "showtimes">];
    out.text(`{"op":"upsert","type":"${SINGULAR[type]}","id":`);
    out.text(JSON.stringify(store.ids.text(at.index)));
    out.text(',"record":');
    out.raw(store.records.entry(at.index));
    out.byte(0x7d);
    store.foldInto(at.index, fold);
  }

  /**
   * Writes deletions from `at` on, at most `max`: all of them after `since`, as they are kept in
   * generation order. Stops before one that would take `out` past `maxBytes` (unless it would be
   * the page's first); `next` is where it stopped, if before the phase's end.
   */
  private writeDeletes(
    at: FeedPosition,
    max: number,
    comma: boolean,
    maxBytes: number,
    out: PageBuffer,
  ): { count: number; next?: FeedPosition } {
    const deletes = this.history.deletes(PHASES[at.phase]!.type);
    let count = 0;
    for (let i = at.index; i < deletes.count; i++) {
      if (count === max) return { count, next: { phase: at.phase, index: i } };
      const before = out.length;
      const first = count === 0 && !comma;
      if (!first) out.byte(0x2c);
      out.raw(deletes.text(i));
      if (!first && out.length > maxBytes) {
        out.length = before;
        return { count, next: { phase: at.phase, index: i } };
      }
      count++;
    }
    return { count };
  }

  /**
   * The showtime records to upsert from `from` on, at most `into.length`, into `into`; how many.
   * Showtime upserts are most of every page: they are gathered and rendered in runs, not one by one.
   */
  private showtimeUpserts(from: number, into: Uint32Array): number {
    if (this.since !== undefined) return this.history.changedAfter("showtimes", from, this.since, into);
    const n = Math.max(0, Math.min(into.length, this.lists.showtimes.count - from));
    for (let i = 0; i < n; i++) into[i] = from + i;
    return n;
  }

  /**
   * Writes the changes from `from` on, comma-separated, until `limit` are written or the next would
   * take the page past `maxBytes` of `out` (one is always written).
   */
  writePage(from: FeedPosition, limit: number, maxBytes: number, out: PageBuffer, fold: FreshnessFold): FeedPage {
    let at = this.find(from);
    let count = 0;
    while (at && count < limit) {
      if (at.phase === SHOWTIME_UPSERTS) {
        const records = new Uint32Array(limit - count);
        const n = this.showtimeUpserts(at.index, records);
        if (n === 0) break; // find saw one here: only a history that changed under it could say otherwise
        const written = this.lists.showtimes.renderUpserts(records, n, count > 0, maxBytes, out, fold);
        count += written;
        if (written < n) return { count, next: { phase: at.phase, index: records[written]! } };
        at = this.find({ phase: at.phase, index: records[n - 1]! + 1 });
        continue;
      }
      if (PHASES[at.phase]!.op === "delete") {
        const written = this.writeDeletes(at, limit - count, count > 0, maxBytes, out);
        count += written.count;
        if (written.next) return { count, next: written.next };
        at = this.find({ phase: at.phase + 1, index: 0 });
        continue;
      }
      const before = out.length;
      const folded = fold.save();
      if (count > 0) out.byte(0x2c);
      this.writeUpsert(at, out, fold);
      if (count > 0 && out.length > maxBytes) {
        out.length = before;
        fold.restore(folded);
        break;
      }
      count++;
      at = this.find({ phase: at.phase, index: at.index + 1 });
    }
    return { count, next: at };
  }
}
