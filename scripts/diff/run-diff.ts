/** Opens both sides and compares every resource; the CLI and the tests call this. */
import { LIST_RESOURCES } from "../../api/_core/format/layout/manifest.js";
import { instantKeyOf } from "../../api/_core/format/primitives/date-time.js";
import { compareResource } from "./compare-resource.js";
import { openSide, type OpenedSnapshot } from "./open-side.js";
import type { SnapshotDiff } from "./report.js";

export interface RunDiffOptions {
  from: string;
  to: string;
  maxChanges: number;
  /** Progress notes for people (stderr in the CLI). */
  onStatus?: (line: string) => void;
}

/** Diffs two snapshots or data folders; throws DiffInputError for inputs the user must fix. */
export async function runDiff(options: RunDiffOptions): Promise<SnapshotDiff> {
  const onStatus = options.onStatus ?? (() => {});
  const opened: OpenedSnapshot[] = [];
  try {
    // One side at a time: a data folder's build holds every record in memory while it runs.
    const from = await openSide(options.from, "--from", onStatus);
    opened.push(from);
    const to = await openSide(options.to, "--to", onStatus);
    opened.push(to);
    const result = {} as SnapshotDiff;
    // Showtimes `to` left out as past are expired, not removed (decision: expired showtimes).
    const dropBefore = to.snapshot.manifest.dropBefore;
    const expireBefore = dropBefore === undefined ? undefined : instantKeyOf(dropBefore);
    for (const resource of LIST_RESOURCES) {
      result[resource] = compareResource(
        resource,
        { lists: from.snapshot.lists, count: from.snapshot.manifest.counts[resource] },
        { lists: to.snapshot.lists, count: to.snapshot.manifest.counts[resource] },
        options.maxChanges,
        resource === "showtimes" ? { expireBefore } : {},
      );
    }
    return result;
  } finally {
    for (const side of opened) side.close();
  }
}
