/**
 * Compares one resource of two snapshots: a merge-join of the two record packs by sort key (both
 * are in list order), then pairing of the unmatched by id. One pass over each pack, O(n) time.
 */
import type { ListResource } from "../../api/_core/layout.js";
import { compareSortKeys } from "../../api/_core/text.js";
import { diffFields, type FieldChange } from "./field-diff.js";
import { PackRandomReader, readPack, type PackRecord } from "./pack-reader.js";
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
  /** At most the requested number of changes, shared fairly between the three kinds. */
  changes: RecordChange[];
  /** Changes counted but not listed. */
  omitted: number;
}

export interface SnapshotSide {
  dir: string;
  count: number;
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

/** Yields a pack's records, failing loudly if they are not in strictly ascending sort-key order. */
function* ordered(records: Generator<PackRecord>, label: string): Generator<PackRecord> {
  let previous: string[] | undefined;
  for (const record of records) {
    if (previous && compareSortKeys(previous, record.sortKey) >= 0) throw new Error(`${label} is not in list order at record ${record.position}`);
    previous = record.sortKey;
    yield record;
  }
}

function parseRecord(bytes: Buffer): unknown {
  return JSON.parse(bytes.toString("utf8"));
}

/** Diffs one resource of two snapshots, listing at most `maxChanges` changes. */
export function compareResource(resource: ListResource, from: SnapshotSide, to: SnapshotSide, maxChanges: number): ResourceDiff {
  const sample = new ChangeSample(maxChanges);
  const diff: ResourceDiff = { count: { from: from.count, to: to.count }, added: 0, removed: 0, changed: 0, changes: [], omitted: 0 };
  const pairer = new MovePairer(from.count + to.count);
  const left = ordered(readPack(from.dir, resource, from.count), `${from.dir} ${resource}`);
  const right = ordered(readPack(to.dir, resource, to.count), `${to.dir} ${resource}`);
  try {
    let a = left.next();
    let b = right.next();
    while (!a.done || !b.done) {
      const order = a.done ? 1 : b.done ? -1 : compareSortKeys(a.value.sortKey, b.value.sortKey);
      if (order < 0) pairer.add("from", a.value!.id, a.value!.position);
      else if (order > 0) pairer.add("to", b.value!.id, b.value!.position);
      else if (!a.value!.bytes.equals(b.value!.bytes)) {
        // Different bytes may still be the same data (key order); only real field changes count.
        const fields = diffFields(parseRecord(a.value!.bytes), parseRecord(b.value!.bytes));
        if (fields.length > 0) {
          diff.changed++;
          sample.add({ kind: "changed", id: a.value!.id, fields });
        }
      }
      if (order <= 0) a = left.next();
      if (order >= 0) b = right.next();
    }
  } catch (error) {
    pairer.discard();
    throw error;
  } finally {
    left.return(undefined);
    right.return(undefined);
  }
  pairRemaining(resource, from, to, pairer, diff, sample);
  diff.changes = sample.pick();
  diff.omitted = diff.added + diff.removed + diff.changed - diff.changes.length;
  return diff;
}

/** Records unmatched by sort key: the same id on both sides moved (a change), the rest came or went. */
function pairRemaining(resource: ListResource, from: SnapshotSide, to: SnapshotSide, pairer: MovePairer, diff: ResourceDiff, sample: ChangeSample): void {
  const readers = { from: new PackRandomReader(from.dir, resource), to: new PackRandomReader(to.dir, resource) };
  try {
    pairer.finish({
      moved(id, fromPosition, toPosition) {
        diff.changed++;
        // A moved sort key always means a changed field, so the bytes are read only to list it.
        if (sample.wants("changed")) {
          const fields = diffFields(parseRecord(readers.from.read(fromPosition)), parseRecord(readers.to.read(toPosition)));
          sample.add({ kind: "changed", id, fields });
        }
      },
      removed(id) {
        diff.removed++;
        sample.add({ kind: "removed", id });
      },
      added(id) {
        diff.added++;
        sample.add({ kind: "added", id });
      },
    });
  } finally {
    readers.from.close();
    readers.to.close();
  }
}
