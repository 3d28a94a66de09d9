/**
 * How usage lies in Redis and Upstash alike (decision: usage), so that a period is summed with one
 * read per day and organization:
 *
 * - `usage:<day>:<market>:<organization>`: a hash per UTC day, market and organization (the
 *   organization last, so any id is unambiguous; empty for keys that name none), with the fields
 *   `<operation>|<outcome>|requests` and `<operation>|<outcome>|bytes`;
 * - `usage-days:<day>`: the set of `<market>:<organization>` with a hash that day (market ids hold no `:`);
 * - `usage-batch:<id>`: a batch added, remembered for a week.
 *
 * A batch is one script, run whole or not at all: it stops at once if its id is known, else records
 * it and adds every count (HINCRBY, SADD), so a batch written twice is counted once. Usage is kept
 * 400 days from its last write.
 */
import { isOutcome } from "../_core/usage/outcome.js";
import type { UsageBatch, UsageEntry, UsageQuery } from "../_core/usage/usage-store.js";

/** Seconds a batch id is remembered: far longer than any batch is held and written again. */
export const BATCH_ID_SECONDS = 7 * 86_400;
/** Seconds usage is kept after its last write: a year and a month, for the year's invoices. */
export const KEEP_USAGE_SECONDS = 400 * 86_400;

/**
 * KEYS: the batch's key, each hash, then each day's set. ARGV: the batch id's seconds, usage's
 * seconds, the number of hashes; then per hash the position in KEYS of its day's set, its member of
 * that set, its number of fields, and each field with its increment.
 */
export const ADD_BATCH_SCRIPT = `if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
local at = 4
for i = 1, tonumber(ARGV[3]) do
  local hash = KEYS[1 + i]
  local days = KEYS[tonumber(ARGV[at])]
  redis.call('SADD', days, ARGV[at + 1])
  redis.call('EXPIRE', days, ARGV[2])
  local fields = tonumber(ARGV[at + 2])
  at = at + 3
  for f = 1, fields do
    redis.call('HINCRBY', hash, ARGV[at], ARGV[at + 1])
    at = at + 2
  end
  redis.call('EXPIRE', hash, ARGV[2])
end
return 1`;

export const batchKey = (id: string) => `usage-batch:${id}`;
export const daySetKey = (day: string) => `usage-days:${day}`;
export const hashKey = (day: string, member: string) => `usage:${day}:${member}`;
const memberOf = (entry: Pick<UsageEntry, "market" | "organization">) => `${entry.market}:${entry.organization}`;

/** The script's keys and arguments for a batch. */
export function addBatchCall(batch: UsageBatch): { keys: string[]; args: string[] } {
  const hashes = new Map<string, { day: string; member: string; fields: string[] }>();
  for (const entry of batch.entries) {
    const member = memberOf(entry);
    const key = hashKey(entry.day, member);
    let hash = hashes.get(key);
    if (!hash) hashes.set(key, (hash = { day: entry.day, member, fields: [] }));
    const field = `${entry.operation}|${entry.outcome}`;
    hash.fields.push(`${field}|requests`, String(entry.requests), `${field}|bytes`, String(entry.bytes));
  }
  const days = [...new Set([...hashes.values()].map((hash) => hash.day))];
  const keys = [batchKey(batch.id), ...hashes.keys(), ...days.map(daySetKey)];
  const args = [String(BATCH_ID_SECONDS), String(KEEP_USAGE_SECONDS), String(hashes.size)];
  for (const hash of hashes.values())
    args.push(
      String(2 + hashes.size + days.indexOf(hash.day)),
      hash.member,
      String(hash.fields.length / 2),
      ...hash.fields,
    );
  return { keys, args };
}

/** Every UTC day from `from` to `to`, both included (YYYY-MM-DD). */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** The hashes a query reads, from the members of each day's set. */
export function hashesAsked(query: UsageQuery, days: string[], members: string[][]): Array<[string, string]> {
  const asked: Array<[string, string]> = [];
  days.forEach((day, i) => {
    for (const member of members[i] ?? []) {
      const colon = member.indexOf(":");
      const [market, organization] = [member.slice(0, colon), member.slice(colon + 1)];
      if (query.market !== undefined && market !== query.market) continue;
      if (query.organization !== undefined && organization !== query.organization) continue;
      asked.push([day, member]);
    }
  });
  return asked;
}

/** A hash's rows; fields this layout does not write are ignored. */
export function rowsOfHash(day: string, member: string, hash: Record<string, unknown> | null): UsageEntry[] {
  const colon = member.indexOf(":");
  const [market, organization] = [member.slice(0, colon), member.slice(colon + 1)];
  const rows = new Map<string, UsageEntry>();
  for (const [field, value] of Object.entries(hash ?? {})) {
    const match = /^(.+)\|([^|]+)\|(requests|bytes)$/.exec(field);
    if (!match || !isOutcome(match[2]!)) continue;
    const [, operation, outcome, measure] = match as unknown as [string, string, UsageEntry["outcome"], string];
    const key = `${operation}|${outcome}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { day, market, organization, operation, outcome, requests: 0, bytes: 0 }));
    row[measure as "requests" | "bytes"] += Number(value);
  }
  return [...rows.values()];
}
