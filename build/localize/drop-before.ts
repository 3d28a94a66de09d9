/**
 * Stage 4: upcoming showtimes only, by the operator's choice (decision: upcoming showtimes): with
 * `--drop-before <date-time>`, showtimes that start before that instant are left out of the
 * snapshot and counted. An explicit instant, never "now", so a build stays deterministic.
 */
import type { Manifest } from "../../api/_core/format/layout/manifest.js";
import { instantKeyOf, utcTextOfKey } from "../../api/_core/format/primitives/date-time.js";
import { readManifest } from "../../api/_core/format/read/snapshot.js";
import type { ValidRecords } from "../validate/entries.js";
import type { LinkedRecords } from "../link/link-records.js";

export interface DropBefore {
  /** The instant as the operator wrote it, or as the previous manifest recorded it when carried. */
  text: string;
  /** Its instant key (date-time.ts). */
  key: string;
  /** Carried from the previous snapshot (within a history the instant never moves back). */
  carried?: boolean;
}

/** What a build left out: before which instant it was asked to, the earliest start it kept, and how many. */
export interface DroppedShowtimes {
  /** The instant asked for (or carried): the next build carries it (the manifest's dropBeforeRequested). */
  before: DropBefore;
  /**
   * The earliest kept showtime's start, which leaves out exactly the same showtimes: the manifest's
   * and the changes feed's dropBefore, so two builds of the same data asked to drop before different
   * instants that change nothing are the same snapshot (a release run twice deploys nothing new).
   */
  effective: string;
  showtimes: number;
}

export interface ScheduledRecords {
  records: ValidRecords;
  /** Absent: nothing asked for. */
  dropped?: DroppedShowtimes;
}

/**
 * The instant a previous snapshot was asked to drop before: the one it records, or, from a snapshot
 * built before the requested instant was recorded, the earliest start it kept (the only one it has).
 */
function requestedBy(manifest: Manifest): string | undefined {
  return manifest.dropBeforeRequested ?? manifest.dropBefore;
}

/**
 * The instant to drop showtimes before: the one asked for, but never earlier than the one the
 * previous snapshot was asked for, so that within a history it only moves forward (a mirror that
 * dropped showtimes by the rule would otherwise never get them back; decision: upcoming showtimes).
 * The requested instant is carried, not the earliest start kept, so a showtime moved into the gap
 * between them is kept.
 */
export function dropBeforeOf(asked: DropBefore | undefined, previousDir: string | undefined): DropBefore | undefined {
  let previous: string | undefined;
  try {
    previous = previousDir === undefined ? undefined : requestedBy(readManifest(previousDir));
  } catch {
    // Unreadable: the history stage says why (or begins afresh).
    previous = undefined;
  }
  if (previous === undefined) return asked;
  const carried = { text: previous, key: instantKeyOf(previous), carried: true };
  return !asked || asked.key < carried.key ? carried : asked;
}

export function dropPastShowtimes({ records }: LinkedRecords, before: DropBefore | undefined): ScheduledRecords {
  if (!before) return { records };
  const kept = records.showtimes.filter((s) => s.startsAt.key >= before.key);
  let earliest = kept[0]?.startsAt.key ?? before.key;
  for (const s of kept) if (s.startsAt.key < earliest) earliest = s.startsAt.key;
  return {
    records: { ...records, showtimes: kept },
    dropped: { before, effective: utcTextOfKey(earliest), showtimes: records.showtimes.length - kept.length },
  };
}
