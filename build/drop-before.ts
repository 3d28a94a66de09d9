/**
 * Stage 4: upcoming showtimes only, by the operator's choice (decision: upcoming showtimes): with
 * `--drop-before <date-time>`, showtimes that start before that instant are left out of the
 * snapshot and counted. An explicit instant, never "now", so a build stays deterministic.
 */
import { utcTextOfKey } from "../api/_core/format/primitives/date-time.js";
import type { ValidRecords } from "./entries.js";
import type { LinkedRecords } from "./link-records.js";

export interface DropBefore {
  /** The instant as the operator wrote it (the manifest keeps it). */
  text: string;
  /** Its instant key (date-time.ts). */
  key: string;
  /** Carried from the previous snapshot (within a history the instant never moves back). */
  carried?: boolean;
}

export interface ScheduledRecords {
  records: ValidRecords;
  /**
   * Showtimes left out, before which instant, and the instant the snapshot records (`effective`):
   * the earliest kept showtime's start, which leaves out exactly the same showtimes, so two builds
   * of the same data asked to drop before different instants that change nothing are the same
   * snapshot (a release run twice deploys nothing new). Absent: nothing asked for.
   */
  dropped?: { before: DropBefore; effective: string; showtimes: number };
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
