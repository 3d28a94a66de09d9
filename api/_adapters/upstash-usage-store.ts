/**
 * Usage kept in Upstash Redis over HTTP (decision: usage), in the layout of usage-layout.ts: a batch
 * is one EVAL, one HTTP request; a period's read is one pipeline of the days' sets and one of their
 * hashes. A write still open at the counter's deadline is cancelled, as the limiter's is.
 */
import type { SelectedUsageStore, UsageStore } from "../_core/usage/usage-store.js";
import { sortedRows } from "../_core/usage/usage-store.js";
import { UPSTASH_STORE, UPSTASH_TIMEOUT_MS, upstashCredentialsOf } from "./upstash-rate-limit.js";
import { ADD_BATCH_SCRIPT, addBatchCall, daySetKey, daysOf, hashesAsked, hashKey, rowsOfHash } from "./usage-layout.js";

const NEVER_ABORTED = new AbortController().signal;

/** @upstash/redis's errors end with the whole command, here the script and every count: its reason alone. */
function withoutCommand(error: Error): never {
  throw new Error(error.message.split(", command was:")[0]);
}

/** HGETALL's answer as an object: a flat list of field and value when not deserialized. */
function hashOf(answer: unknown): Record<string, unknown> | null {
  if (!Array.isArray(answer)) return (answer as Record<string, unknown> | null) ?? null;
  const hash: Record<string, unknown> = {};
  for (let i = 0; i + 1 < answer.length; i += 2) hash[String(answer[i])] = answer[i + 1];
  return hash;
}

export function upstashUsageStore(url: string, token: string): UsageStore {
  // As in upstash-rate-limit.ts: the signal is read as each request is sent, so it is the call's own;
  // commands are sent as called (no automatic pipelining) and answered as Redis gives them.
  let sending = NEVER_ABORTED;
  const client = import("@upstash/redis").then(
    ({ Redis }) =>
      new Redis({
        url,
        token,
        retry: { retries: 0 },
        enableTelemetry: false,
        enableAutoPipelining: false,
        automaticDeserialization: false,
        signal: () => sending,
      }),
  );
  return {
    name: UPSTASH_STORE.name,
    async add(batch, signal) {
      const redis = await client;
      const { keys, args } = addBatchCall(batch);
      sending = signal;
      const answer = redis.eval(ADD_BATCH_SCRIPT, keys, args);
      sending = NEVER_ABORTED;
      return Number(await answer.catch(withoutCommand)) === 1;
    },
    async read(query) {
      const redis = await client;
      const days = daysOf(query.from, query.to);
      const sets = redis.pipeline();
      for (const day of days) sets.smembers(daySetKey(day));
      const members = days.length ? ((await sets.exec()) as string[][]) : [];
      const asked = hashesAsked(query, days, members);
      const hashes = redis.pipeline();
      for (const [day, member] of asked) hashes.hgetall(hashKey(day, member));
      const answers = asked.length ? ((await hashes.exec()) as unknown[]) : [];
      return sortedRows(asked.flatMap(([day, member], i) => rowsOfHash(day, member, hashOf(answers[i]))));
    },
  };
}

/** The Upstash usage store and its deadline when the limiter's variables select Upstash. */
export function upstashUsageFromEnvironment(env: NodeJS.ProcessEnv): SelectedUsageStore | undefined {
  const credentials = upstashCredentialsOf(env);
  return credentials && { store: upstashUsageStore(credentials.url, credentials.token), timeoutMs: UPSTASH_TIMEOUT_MS };
}
