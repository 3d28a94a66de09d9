/**
 * What the bench measures at a time: a named set of request paths (scenarios.ts makes them;
 * feed-scenario.ts one more).
 */
export interface Scenario {
  name: string;
  paths: string[];
  /** POSTed in turn to `paths[0]` (MCP messages), instead of GETs of the paths. */
  bodies?: string[];
  authorized: boolean;
  /** Composed on every request: many distinct URLs, more than the composed-page cache holds. */
  uncached?: boolean;
}

/** Distinct URLs per uncached scenario: ~40 kB pages, far beyond the 6 MB composed-page cache. */
export const UNCACHED_URLS = 2000;

/** `count` distinct items of `0..total-1` in a random order (a partial Fisher-Yates shuffle). */
export function distinctIndexes(total: number, count: number, pick: (n: number) => number): number[] {
  const indexes = Array.from({ length: total }, (_, i) => i);
  const n = Math.min(total, count);
  for (let i = 0; i < n; i++) {
    const j = i + pick(total - i);
    [indexes[i], indexes[j]] = [indexes[j]!, indexes[i]!];
  }
  return indexes.slice(0, n);
}
