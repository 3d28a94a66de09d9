/**
 * Reads what a period's usage holds (decision: usage): from the shared store the rate limiter uses when
 * its variables are set, else from the local server's folder; the store's connection closed after.
 */
import { usageStoreFromEnvironment } from "../../api/_adapters/rate-limit-stores.js";
import type { UsageEntry, UsageStore } from "../../api/_core/usage/usage-store.js";
import { DEFAULT_USAGE_DIR, fileUsageStore } from "../server/usage-file.js";
import type { UsageInvocation } from "./args.js";

/** The store could not be read: exit status 1. */
export class UsageReadFailure extends Error {}

/** The store `npm run usage` reads for this environment. */
export function usageStoreFor(env: NodeJS.ProcessEnv, dir: string | undefined): UsageStore {
  return usageStoreFromEnvironment(env)?.store ?? fileUsageStore(dir ?? (env.USAGE_DIR || DEFAULT_USAGE_DIR));
}

export async function readUsage(store: UsageStore, invocation: UsageInvocation): Promise<UsageEntry[]> {
  const { from, to, organization, market } = invocation;
  try {
    return await store.read({ from, to, organization, market });
  } catch (error) {
    // fetch's own message is "fetch failed": its cause says why (refused, not found, timed out).
    const { message, cause } = error as Error & { cause?: { message?: string } };
    throw new UsageReadFailure(`cannot read ${store.name}: ${message}${cause?.message ? ` (${cause.message})` : ""}`);
  } finally {
    await store.close?.();
  }
}
