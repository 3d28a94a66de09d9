/**
 * Where usage is kept (decision: usage): rows of counts per UTC day, market, organization, operation
 * and outcome, added to in batches. Each batch carries an id the store records as it adds it, in the
 * same step, so a batch written again (its first write ran out of time and may have landed) adds
 * nothing: no request is counted twice. Adapters: Redis and Upstash (api/_adapters/usage-*.ts), the
 * local server's file (scripts/server/usage-file.ts), and memory here (tests).
 */
import type { Outcome } from "./outcome.js";

/** The organization of requests refused for a key that names none (unknown, malformed or missing). */
export const NO_ORGANIZATION = "";

export interface UsageEntry {
  /** YYYY-MM-DD, in UTC. */
  day: string;
  market: string;
  /** NO_ORGANIZATION for refusals of keys that name none. */
  organization: string;
  operation: string;
  outcome: Outcome;
  requests: number;
  /** Response bytes as sent (compressed when a coding was applied); none for HEAD, 304 and `cdn`. */
  bytes: number;
}

export interface UsageBatch {
  /** Unique per batch; the same id again is the same batch. */
  id: string;
  entries: readonly UsageEntry[];
}

/** Days from `from` to `to`, both included; an organization and a market when given. */
export interface UsageQuery {
  from: string;
  to: string;
  organization?: string;
  market?: string;
}

export interface UsageStore {
  /** As reports name it. */
  readonly name: string;
  /**
   * Adds a batch's counts, once: true when added now, false when its id was added before. Rejects
   * (unreachable, refused) with the reason. `signal` aborts when the counter stops waiting.
   */
  add(batch: UsageBatch, signal: AbortSignal): Promise<boolean>;
  /** Every row of the days asked, summed over batches; rows that sum to nothing left out. */
  read(query: UsageQuery): Promise<UsageEntry[]>;
  close?(): Promise<void>;
}

/** A shared store as the environment selects it, with the deadline a write waits for it (the limiter's). */
export interface SelectedUsageStore {
  store: UsageStore;
  timeoutMs: number;
}

/** One row's identity, the key counts are summed by. */
export function rowKey(entry: Omit<UsageEntry, "requests" | "bytes">): string {
  return `${entry.day}\u0000${entry.market}\u0000${entry.organization}\u0000${entry.operation}\u0000${entry.outcome}`;
}

/** Whether a row is one a query asks for. */
export function isAsked(entry: Pick<UsageEntry, "day" | "organization" | "market">, query: UsageQuery): boolean {
  return (
    entry.day >= query.from &&
    entry.day <= query.to &&
    (query.organization === undefined || entry.organization === query.organization) &&
    (query.market === undefined || entry.market === query.market)
  );
}

/** Rows with something in them, in a stable order: day, market, organization, operation, outcome. */
export function sortedRows(rows: Iterable<UsageEntry>): UsageEntry[] {
  return [...rows]
    .filter((row) => row.requests !== 0 || row.bytes !== 0)
    .sort((a, b) => (rowKey(a) < rowKey(b) ? -1 : rowKey(a) > rowKey(b) ? 1 : 0));
}

/** Usage kept in this process's memory: the contract's reference, and tests' store. */
export function memoryUsageStore(name = "memory"): UsageStore {
  const rows = new Map<string, UsageEntry>();
  const added = new Set<string>();
  return {
    name,
    async add(batch) {
      if (added.has(batch.id)) return false;
      added.add(batch.id);
      for (const entry of batch.entries) {
        const key = rowKey(entry);
        const row = rows.get(key);
        if (row) {
          row.requests += entry.requests;
          row.bytes += entry.bytes;
        } else rows.set(key, { ...entry });
      }
      return true;
    },
    async read(query) {
      return sortedRows([...rows.values()].filter((row) => isAsked(row, query)).map((row) => ({ ...row })));
    },
  };
}
