/**
 * Access data read at run time from Vercel Edge Config (decision: revocation in seconds): the item
 * `access` holds the whole access file, as `npm run keys -- … --push` writes it. Access data never
 * goes backwards: the data in force is the newest version among the deployment's own copy and
 * every item this instance has read (of two of one version, the later read). So an item that is
 * older, missing or broken, or a read that fails, changes nothing once an instance has read Edge
 * Config; an instance that never has (cold) and cannot, answers no admission with data that may
 * miss a revocation: a key the deployment's copy admits is a 503 until a read succeeds. A missing
 * item on a cold instance means nothing was ever pushed: the deployment's copy is in force.
 *
 * Each instance keeps what it read: younger than FRESH_MS it is used as is; older, it is used while
 * a read runs in the background; older than MAX_AGE_MS (an instance idle for a while), or not yet
 * read at all, the request waits for the read, at most TIMEOUT_MS. So a change is in force
 * everywhere within MAX_AGE_MS of Edge Config having it, plus one read.
 */
import { AccessIndex, type AccessSource } from "../_core/gate/access.js";
import { parseAccessFile } from "../_core/gate/access-file.js";
import { problemReport } from "../_core/log/problem-report.js";

export const ACCESS_ITEM = "access";
export const FRESH_MS = 1_000;
export const MAX_AGE_MS = 5_000;
export const TIMEOUT_MS = 1_000;

export interface RemoteAccessOptions {
  /** Reads the item; undefined when it is absent. */
  read: () => Promise<unknown>;
  /** Milliseconds since any epoch (tests move it). */
  now?: () => number;
  /** Problems, once per outage, broken or older item (not once per request). */
  onProblem?: (message: string) => void;
}

function timeout(ms: number): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref());
}

const ITEM_SOURCE = `Edge Config item ${ACCESS_ITEM}`;

/** Access data from a remote item over the deployment's own (`base`), never going back to an older version. */
export function remoteAccess(base: AccessIndex, options: RemoteAccessOptions): AccessSource {
  const now = options.now ?? Date.now;
  const problems = problemReport(options.onProblem);
  const older = problemReport(options.onProblem);
  /** The newest data seen: the deployment's copy counts as seen. */
  let newest = base;
  /** What answers while no read has succeeded: the deployment's copy, admitting no one. */
  let unconfirmed: AccessIndex | undefined;
  let confirmed = false;
  let readAt = Number.NEGATIVE_INFINITY;
  let lastText: string | undefined;
  let reading: Promise<void> | undefined;

  function adopt(value: unknown): void {
    // No item: nothing was ever pushed (or it was deleted); what is in force stays.
    if (value === undefined || value === null) return;
    const text = JSON.stringify(value);
    if (text === lastText) return;
    const next = new AccessIndex(parseAccessFile(text, ITEM_SOURCE));
    lastText = text;
    if (next.version < newest.version) {
      older.problem(
        `access: ${ITEM_SOURCE} is version ${next.version}, older than version ${newest.version} in force; ` +
          `keeping version ${newest.version}`,
      );
      return;
    }
    older.resolved(`access: ${ITEM_SOURCE} is version ${next.version}, in force`);
    newest = next;
  }

  function failed(error: Error): void {
    if (confirmed) {
      problems.problem(`access: cannot use Edge Config (${error.message}); keeping version ${newest.version} in force`);
      return;
    }
    const reason =
      `access: cannot use Edge Config before any read succeeded (${error.message}); ` +
      "a key the deployment's copy admits is answered 503 until one does";
    problems.problem(reason);
    unconfirmed = base.unconfirmedBecause(reason);
  }

  function refresh(): Promise<void> {
    reading ??= Promise.race([options.read(), timeout(TIMEOUT_MS)])
      .then(adopt)
      .then(() => {
        confirmed = true;
        unconfirmed = undefined;
        problems.resolved("access: Edge Config readable again");
      }, failed)
      .finally(() => {
        readAt = now();
        reading = undefined;
      });
    return reading;
  }

  const inForce = () => (confirmed ? newest : (unconfirmed ?? newest));

  return {
    current() {
      const age = now() - readAt;
      if (age < FRESH_MS) return inForce();
      const read = refresh();
      // Until one read has succeeded, every request past FRESH_MS waits for the next.
      return confirmed && age < MAX_AGE_MS ? newest : read.then(inForce);
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
