/**
 * Stage 4: upcoming showtimes only, by the operator's choice (decision: upcoming showtimes): with
 * `--drop-before <date-time>`, showtimes that start before that instant are left out of the
 * snapshot and counted. An explicit instant, never "now", so a build stays deterministic.
 */
import type { ValidRecords } from "./entries.js";
import type { LinkedRecords } from "./link-records.js";

export interface DropBefore {
  /** The instant as the operator wrote it (the manifest keeps it). */
  text: string;
  /** Its instant key (date-time.ts). */
  key: string;
}

export interface ScheduledRecords {
  records: ValidRecords;
  /** Showtimes left out, and before which instant (absent: none asked for). */
  dropped?: { before: DropBefore; showtimes: number };
}

export function dropPastShowtimes({ records }: LinkedRecords, before: DropBefore | undefined): ScheduledRecords {
  if (!before) return { records };
  const kept = records.showtimes.filter((s) => s.startsAt.key >= before.key);
  return {
    records: { ...records, showtimes: kept },
    dropped: { before, showtimes: records.showtimes.length - kept.length },
  };
}
