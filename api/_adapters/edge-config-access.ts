/**
 * Access data read at run time from Vercel Edge Config (decision: revocation in seconds): the item
 * `access` holds the whole access file, as `npm run keys -- … --push` writes it. When present and
 * valid it is the access data in force; the copy the deployment carries is the fallback (no item,
 * or Edge Config unreadable at a cold start).
 *
 * Each instance keeps what it read: younger than FRESH_MS it is used as is; older, it is used while
 * a read runs in the background; older than MAX_AGE_MS (an instance idle for a while), the request
 * waits for the read, at most TIMEOUT_MS. So a change is in force everywhere within MAX_AGE_MS of
 * Edge Config having it, plus one read.
 */
import { AccessIndex, type AccessSource } from "../_core/access.js";
import { parseAccessFile } from "../_core/access-file.js";
import { problemReport } from "../_core/problem-report.js";

export const ACCESS_ITEM = "access";
export const FRESH_MS = 1_000;
export const MAX_AGE_MS = 5_000;
export const TIMEOUT_MS = 1_000;

export interface RemoteAccessOptions {
  /** Reads the item; undefined when it is absent. */
  read: () => Promise<unknown>;
  /** Milliseconds since any epoch (tests move it). */
  now?: () => number;
  /** Problems, once per outage or broken item (not once per request). */
  onProblem?: (message: string) => void;
}

function timeout(ms: number): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref());
}

/** Access data from a remote item over the deployment's own (`base`). */
export function remoteAccess(base: AccessIndex, options: RemoteAccessOptions): AccessSource {
  const now = options.now ?? Date.now;
  const problems = problemReport(options.onProblem);
  let index = base;
  let readAt = Number.NEGATIVE_INFINITY;
  let lastText: string | undefined;
  let reading: Promise<void> | undefined;

  function adopt(value: unknown): void {
    const text = value === undefined || value === null ? undefined : JSON.stringify(value);
    if (text === lastText) return;
    index = text === undefined ? base : new AccessIndex(parseAccessFile(text, `Edge Config item ${ACCESS_ITEM}`));
    lastText = text;
  }

  function refresh(): Promise<void> {
    reading ??= Promise.race([options.read(), timeout(TIMEOUT_MS)])
      .then(adopt)
      .then(
        () => problems.resolved("access: Edge Config readable again"),
        // The last good data stays in force: a broken edit or an outage must not lock every client out.
        (error: Error) =>
          problems.problem(`access: cannot use Edge Config (${error.message}); keeping the access data in force`),
      )
      .finally(() => {
        readAt = now();
        reading = undefined;
      });
    return reading;
  }

  return {
    current() {
      const age = now() - readAt;
      if (age < FRESH_MS) return index;
      const read = refresh();
      return age < MAX_AGE_MS ? index : read.then(() => index);
    },
  };
}

/** Access data from the Edge Config a connection string names (EDGE_CONFIG). */
export function edgeConfigAccess(
  base: AccessIndex,
  connectionString: string,
  options: Omit<RemoteAccessOptions, "read"> = {},
): AccessSource {
  // Imported on the first read, so a deployment without Edge Config never loads the SDK.
  const client = import("@vercel/edge-config").then(({ createClient }) => createClient(connectionString));
  return remoteAccess(base, { ...options, read: async () => (await client).get(ACCESS_ITEM) });
}
