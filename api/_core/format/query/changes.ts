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

  /** Writes one change, comma-separated after the first. */
  private write(at: FeedPosition, out: PageBuffer, fold: FreshnessFold): void {
    const { type, op } = PHASES[at.phase]!;
    if (op === "delete") {
      out.raw(this.history.deletes(type).text(at.index));
      return;
    }
    if (type === "showtimes") {
      this.lists.showtimes.renderUpsert(at.index, out, fold);
      return;
    }
    const store = this.lists[type];
    out.text(`{"op":"upsert","type":"${SINGULAR[type]}","id":`);
    out.text(JSON.stringify(store.ids.text(at.index)));
    out.text(',"record":');
    out.raw(store.records.entry(at.index));
    out.byte(0x7d);
    store.foldInto(at.index, fold);
  }

  /**
   * Writes the changes from `from` on, comma-separated, until `limit` are written or the next would
   * take the page past `maxBytes` of `out` (one is always written).
   */
  writePage(from: FeedPosition, limit: number, maxBytes: number, out: PageBuffer, fold: FreshnessFold): FeedPage {
    let at = this.find(from);
    let count = 0;
    while (at && count < limit) {
      const before = out.length;
      const folded = fold.save();
      if (count > 0) out.byte(0x2c);
      this.write(at, out, fold);
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
