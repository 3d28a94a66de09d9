/**
 * Usage as the deployed pieces keep it (decision: usage): in the shared store the rate limiter uses
 * (the store table's first row the environment selects), written after each request's answer under
 * the platform's waitUntil, so that no request waits for the store, and written a last time when the
 * platform stops the instance (Vercel sends SIGTERM and allows 500 ms: "Vercel Functions now support
 * graceful shutdown", vercel.com/changelog). Without a shared store nothing is kept, said once.
 */
import { usageCounter, type UsageCounter } from "../_core/usage/usage-counter.js";
import { usageStoreFromEnvironment } from "./rate-limit-stores.js";

/** Keeps the instance alive until `promise` settles, as @vercel/functions' waitUntil does (get-context.js). */
export function waitUntil(promise: Promise<unknown>): void {
  const contexts = (globalThis as Record<symbol, { get?: () => { waitUntil?: (p: Promise<unknown>) => void } }>)[
    Symbol.for("@vercel/request-context")
  ];
  contexts?.get?.()?.waitUntil?.(promise);
}

/** Runs `close` when the platform stops the instance, then lets the signal end the process as it would have. */
export function closeOnSigterm(close: () => Promise<void>): void {
  process.once("SIGTERM", () => {
    void close().finally(() => process.kill(process.pid, "SIGTERM"));
  });
}

export interface DeployedUsageOptions {
  /** Outages, their end and lost counts, one line each; and that nothing is kept. */
  report: (message: string) => void;
  /** How the last write is run when the instance stops (tests hold it); default on SIGTERM. */
  onStop?: (close: () => Promise<void>) => void;
}

/** The deployment's usage counter, or undefined when no shared store is configured. */
export function deployedUsage(env: NodeJS.ProcessEnv, options: DeployedUsageOptions): UsageCounter | undefined {
  const selected = usageStoreFromEnvironment(env);
  if (!selected) {
    options.report("usage: not kept (no shared store: set UPSTASH_REDIS_REST_URL and _TOKEN, or REDIS_URL)");
    return undefined;
  }
  const counter = usageCounter({ ...selected, report: options.report });
  (options.onStop ?? closeOnSigterm)(() => counter.close());
  return counter;
}

/** After an answer: the counts it made written off the request path, the instance kept alive until they are. */
export function flushAfter<T>(counter: UsageCounter | undefined, answer: T | Promise<T>): T | Promise<T> {
  if (!counter) return answer;
  if (!(answer instanceof Promise)) {
    waitUntil(counter.flush());
    return answer;
  }
  return answer.finally(() => waitUntil(counter.flush()));
}
