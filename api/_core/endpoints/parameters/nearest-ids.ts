/**
 * The known ids nearest to one a request named and no record has (decision: known attribute ids),
 * for the 400 that names them. A catalogue is small and closed, so every entry is looked at.
 */

/** A catalogue entry: its id and, when it has one, the name people call it by (IMAX, English). */
export interface KnownId {
  id: string;
  name?: string;
}

/** How many ids a refusal names at most. */
export const MAX_NEAREST = 5;

/** How near an entry is: its tier (0 equal ignoring case, 1 containing, 2 a few edits), then a measure within it. */
type Nearness = [tier: number, measure: number];

/**
 * Levenshtein distance of two strings (UTF-16 units), or `limit + 1` when it is over `limit`: the
 * length difference alone rules most pairs out before any table is filled.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, substitution));
    }
    previous = row;
  }
  return Math.min(previous[b.length]!, limit + 1);
}

/** The texts an entry is found by, lower-cased: its id, the id past its kind's prefix (`imax-3d`), its name. */
function textsOf(entry: KnownId): string[] {
  const id = entry.id.toLowerCase();
  const dash = id.indexOf("-");
  return [id, ...(dash > 0 ? [id.slice(dash + 1)] : []), ...(entry.name ? [entry.name.toLowerCase()] : [])];
}

function nearnessOf(given: string, entry: KnownId, limit: number): Nearness | undefined {
  const id = entry.id.toLowerCase();
  let best: Nearness | undefined;
  const keep = (n: Nearness) => {
    if (!best || n[0] < best[0] || (n[0] === best[0] && n[1] < best[1])) best = n;
  };
  for (const text of textsOf(entry)) {
    if (text === given) keep([0, 0]);
    else if (text.includes(given)) keep([1, text.length - given.length]);
    else {
      const d = editDistance(given, text, limit);
      if (d <= limit) keep([2, d]);
    }
  }
  // A longer id holding a whole known one (format-imax-laser: format-imax).
  if (given.includes(id)) keep([1, given.length - id.length]);
  return best;
}

/**
 * Up to `max` ids of `known` nearest to `given`, nearest first: an id or name equal to it ignoring
 * case, then those containing it (the least beside it first), then those a few edits away (one edit
 * per four characters, at least one); ties by id. None when nothing is near.
 */
export function nearestIds(given: string, known: readonly KnownId[], max = MAX_NEAREST): string[] {
  const lower = given.toLowerCase();
  const limit = Math.max(1, Math.floor(lower.length / 4));
  const near: Array<[KnownId, Nearness]> = [];
  for (const entry of known) {
    const nearness = nearnessOf(lower, entry, limit);
    if (nearness) near.push([entry, nearness]);
  }
  near.sort(([a, x], [b, y]) => x[0] - y[0] || x[1] - y[1] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return near.slice(0, max).map(([entry]) => entry.id);
}
