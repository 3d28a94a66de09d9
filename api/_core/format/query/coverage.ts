/**
 * What a snapshot covers (decision: markets, `GET /markets`): the countries of its cinemas and the
 * first and last local day on which it has a showtime. The days are those `date` finds showtimes on
 * (discovery.days: each cinema's rows by local day), so the range says which dates a query can ask.
 * Worked out once per snapshot, on first use: a snapshot never changes.
 */
import type { Snapshot } from "../read/snapshot.js";

export interface Coverage {
  /** Its cinemas' country codes, sorted, each once. */
  countries: string[];
  /** The first and last local date (YYYY-MM-DD) with a showtime; null when it has none. */
  firstDate: string | null;
  lastDate: string | null;
}

const known = new WeakMap<Snapshot, Coverage>();

/** A day since 1970-01-01 as YYYY-MM-DD. */
function dateOfEpochDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

function countriesOf(snapshot: Snapshot): string[] {
  const { cinemas } = snapshot.lists;
  const codes = new Set<string>();
  for (let i = 0; i < cinemas.length; i++) {
    const code = cinemas.countryCodeOf(i);
    if (code !== "  ") codes.add(code);
  }
  return [...codes].sort();
}

function daysOf(snapshot: Snapshot): Pick<Coverage, "firstDate" | "lastDate"> {
  const { lists } = snapshot;
  if (lists.showtimes.count === 0) return { firstDate: null, lastDate: null };
  const days = lists.days;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < lists.cinemas.length; c++) {
    const [start, end] = days.rowsOf(c);
    if (end === start) continue;
    // A cinema's rows are in day order.
    first = Math.min(first, days.day[start]!);
    last = Math.max(last, days.day[end - 1]!);
  }
  if (first > last) return { firstDate: null, lastDate: null };
  return { firstDate: dateOfEpochDay(days.base + first), lastDate: dateOfEpochDay(days.base + last) };
}

/** The snapshot's coverage; throws SnapshotError when its sections cannot be read. */
export function coverageOf(snapshot: Snapshot): Coverage {
  let coverage = known.get(snapshot);
  if (!coverage) {
    coverage = { countries: countriesOf(snapshot), ...daysOf(snapshot) };
    known.set(snapshot, coverage);
  }
  return coverage;
}
