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
