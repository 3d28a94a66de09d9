/**
 * Compares one resource of two snapshots: a merge-join of the two record packs by sort key (both
 * are in list order), then pairing of the unmatched by id. One pass over each pack, O(n) time.
 */
import type { ListResource } from "../../api/_core/format/layout/manifest.js";
import type { SnapshotLists } from "../../api/_core/format/read/snapshot.js";
import { compareSortKeys } from "../../api/_core/respond/text.js";
import { diffFields, type FieldChange } from "./field-diff.js";
import { ListCursor, readRecord } from "./snapshot-records.js";
import { ENDS_AT } from "../../api/_core/format/layout/showtime-fields.js";
import { MovePairer } from "./pair-moves.js";

export type ChangeKind = "removed" | "changed" | "added";

export interface RecordChange {
  kind: ChangeKind;
  id: string;
  /** What differs, for a changed record. */
  fields?: FieldChange[];
}

export interface ResourceDiff {
  count: { from: number; to: number };
  added: number;
  removed: number;
  changed: number;
  /**
   * Showtimes of `from` missing from `to` because they start before the instant `to` was built to
   * leave out (its manifest's dropBefore): expected, so not counted as removed (decision: expired showtimes).
   */
  expired: number;
  /** At most the requested number of changes, shared fairly between the three kinds. */
  changes: RecordChange[];
  /** Changes counted but not listed. */
  omitted: number;
}

export interface SnapshotSide {
  lists: SnapshotLists;
  count: number;
}

/** Unmatched `from` records before this instant key are expired, not removed (showtimes only). */
export interface CompareOptions {
  expireBefore?: string;
}

const KINDS: readonly ChangeKind[] = ["removed", "changed", "added"];

/** Keeps the first `max` changes of each kind, then picks `max` in all, round-robin between kinds. */
class ChangeSample {
  private readonly kept: Record<ChangeKind, RecordChange[]> = { removed: [], changed: [], added: [] };

  constructor(private readonly max: number) {}

  wants(kind: ChangeKind): boolean {
    return this.kept[kind].length < this.max;
  }

  add(change: RecordChange): void {
    if (this.wants(change.kind)) this.kept[change.kind].push(change);
  }

  /** The listed changes, grouped by kind in encounter order. */
  pick(): RecordChange[] {
    const taken: Record<ChangeKind, number> = { removed: 0, changed: 0, added: 0 };
    for (let total = 0, progress = true; total < this.max && progress; ) {
      progress = false;
      for (const kind of KINDS) {
        if (total === this.max || taken[kind] === this.kept[kind].length) continue;
        taken[kind]++;
        total++;
        progress = true;
      }
    }
    return KINDS.flatMap((kind) => this.kept[kind].slice(0, taken[kind]));
  }
}

/**
 * A record as the diff compares it: a showtime without its `endsAt`, which is derived from its
 * `startsAt` and its film's `durationMinutes` (decision: showtime ends); the diff lists those.
 */
function parseRecord(bytes: Buffer): unknown {
  const record = JSON.parse(bytes.toString("utf8"));
  delete record[ENDS_AT.name];
  return record;
}

/** Diffs one resource of two snapshots, listing at most `maxChanges` changes. */
export function compareResource(
  resource: ListResource,
  from: SnapshotSide,
  to: SnapshotSide,
  maxChanges: number,
  options: CompareOptions = {},
): ResourceDiff {
  const sample = new ChangeSample(maxChanges);
  const diff: ResourceDiff = {
    count: { from: from.count, to: to.count },
    added: 0,
    removed: 0,
    changed: 0,
    expired: 0,
    changes: [],
    omitted: 0,
  };
  // `from` is in list order, [instant, id]: its records before the instant are a prefix of it.
  let expiredBelow = 0;
  const pairer = new MovePairer(from.count + to.count);
  const left = new ListCursor(from.lists, resource);
  const right = new ListCursor(to.lists, resource);
  try {
    let a = left.next();
    let b = right.next();
    while (a || b) {
      const order = !a ? 1 : !b ? -1 : compareSortKeys(a.sortKey, b.sortKey);
      if (a && options.expireBefore !== undefined && a.sortKey.length === 2 && a.sortKey[0]! < options.expireBefore)
        expiredBelow = a.position + 1;
      if (order < 0) pairer.add("from", a!.id, a!.position);
      else if (order > 0) pairer.add("to", b!.id, b!.position);
      else if (!a!.bytes.equals(b!.bytes)) {
        // Different bytes may still be the same data (key order); only real field changes count.
        const fields = diffFields(parseRecord(a!.bytes), parseRecord(b!.bytes));
        if (fields.length > 0) {
          diff.changed++;
          sample.add({ kind: "changed", id: a!.id, fields });
        }
      }
      if (order <= 0) a = left.next();
      if (order >= 0) b = right.next();
    }
  } catch (error) {
    pairer.discard();
    throw error;
  }
  pairRemaining(resource, from, to, pairer, diff, sample, expiredBelow);
  diff.changes = sample.pick();
  diff.omitted = diff.added + diff.removed + diff.changed - diff.changes.length;
  return diff;
}

/** Records unmatched by sort key: the same id on both sides moved (a change), the rest came or went. */
function pairRemaining(
  resource: ListResource,
  from: SnapshotSide,
  to: SnapshotSide,
  pairer: MovePairer,
  diff: ResourceDiff,
  sample: ChangeSample,
  expiredBelow: number,
): void {
  const readers = {
    from: { read: (p: number) => readRecord(from.lists, resource, p) },
    to: { read: (p: number) => readRecord(to.lists, resource, p) },
  };
  pairer.finish({
    moved(id, fromPosition, toPosition) {
      diff.changed++;
      // A moved sort key always means a changed field, so the bytes are read only to list it.
      if (sample.wants("changed")) {
        const fields = diffFields(
          parseRecord(readers.from.read(fromPosition)),
          parseRecord(readers.to.read(toPosition)),
        );
        sample.add({ kind: "changed", id, fields });
      }
    },
    removed(id, position) {
      if (position < expiredBelow) {
        diff.expired++;
        return;
      }
      diff.removed++;
      sample.add({ kind: "removed", id });
    },
    added(id) {
      diff.added++;
      sample.add({ kind: "added", id });
    },
  });
}
