/**
 * Usage kept in Redis over TCP (REDIS_URL; decision: usage), in the layout of usage-layout.ts: a batch
 * is one script, a period's read one pipeline of the days' sets and one of their hashes. The
 * connection never queues (redis-connection.ts): while Redis is down a write fails at once and its
 * batch stays held by the counter.
 */
import type { Redis } from "ioredis";
import type { SelectedUsageStore, UsageStore } from "../_core/usage/usage-store.js";
import { sortedRows } from "../_core/usage/usage-store.js";
import { redisConnection } from "./redis-connection.js";
import { REDIS_STORE, REDIS_TIMEOUT_MS, redisTimeoutFromEnvironment } from "./redis-rate-limit.js";
import { ADD_BATCH_SCRIPT, addBatchCall, daySetKey, daysOf, hashesAsked, hashKey, rowsOfHash } from "./usage-layout.js";

type UsageClient = Redis & { usageAdd(...keysThenArgs: Array<string | number>): Promise<number> };

export interface RedisUsageStore extends UsageStore {
  ready(): Promise<boolean>;
}

/** Each answer of a pipeline, or the first error in it. */
function answersOf<T>(results: Array<[Error | null, unknown]> | null): T[] {
  return (results ?? []).map(([error, value]) => {
    if (error) throw error;
    return value as T;
  });
}

export function redisUsageStore(url: string): RedisUsageStore {
  const connection = redisConnection(url, { usageAdd: { lua: ADD_BATCH_SCRIPT } });
  return {
    name: REDIS_STORE.name,
    async add(batch) {
      const client = (await connection.connected()) as UsageClient;
      const { keys, args } = addBatchCall(batch);
      return Number(await client.usageAdd(keys.length, ...keys, ...args)) === 1;
    },
    async read(query) {
      const client = await connection.connected();
      const days = daysOf(query.from, query.to);
      const members = answersOf<string[]>(
        await client.pipeline(days.map((day) => ["smembers", daySetKey(day)])).exec(),
      );
      const asked = hashesAsked(query, days, members);
      const hashes = answersOf<Record<string, string>>(
        await client.pipeline(asked.map(([day, member]) => ["hgetall", hashKey(day, member)])).exec(),
      );
      return sortedRows(asked.flatMap(([day, member], i) => rowsOfHash(day, member, hashes[i] ?? null)));
    },
    ready: connection.ready,
    close: connection.close,
  };
}

/** The Redis usage store and its deadline (REDIS_TIMEOUT_MS, as the limiter's) when REDIS_URL is set. */
export function redisUsageFromEnvironment(env: NodeJS.ProcessEnv): SelectedUsageStore | undefined {
  if (!env.REDIS_URL) return undefined;
  return { store: redisUsageStore(env.REDIS_URL), timeoutMs: redisTimeoutFromEnvironment(env) ?? REDIS_TIMEOUT_MS };
}
