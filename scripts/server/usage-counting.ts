/**
 * Usage as the local server keeps it (decision: usage): in the shared store the rate limiter uses when
 * one is configured (REDIS_URL, Upstash), else in files of its own (USAGE_DIR, default ops/usage:
 * usage-file.ts), written once a second and a last time when the server is stopped.
 */
import { usageStoreFromEnvironment } from "../../api/_adapters/rate-limit-stores.js";
import { usageCounter, type UsageCounter } from "../../api/_core/usage/usage-counter.js";
import { DEFAULT_USAGE_DIR, FILE_TIMEOUT_MS, fileUsageStore } from "./usage-file.js";

/** How often counts are written: a process killed outright (SIGKILL) loses at most this long's. */
export const USAGE_WRITE_MS = 1_000;

export interface LocalUsage {
  counter: UsageCounter;
  /** Stops the writes on the interval, then writes a last time (what the store does not take is lost, said). */
  close(): Promise<void>;
}

/** The counter and its interval; `report` gets outages and lost counts, one line each. */
export function localUsage(env: NodeJS.ProcessEnv, report: (message: string) => void): LocalUsage {
  const selected = usageStoreFromEnvironment(env) ?? {
    store: fileUsageStore(env.USAGE_DIR || DEFAULT_USAGE_DIR),
    timeoutMs: FILE_TIMEOUT_MS,
  };
  const counter = usageCounter({ ...selected, report });
  const timer = setInterval(() => void counter.flush(), USAGE_WRITE_MS);
  timer.unref();
  return {
    counter,
    async close() {
      clearInterval(timer);
      await counter.close();
    },
  };
}
