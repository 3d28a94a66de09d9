/** The log step: one line per request, as the operation log (request-log.ts) writes it. Never carries the key. */
import type { RefusedKey } from "../gate/access.js";

export interface RequestLog {
  requestId: string;
  organization?: string;
  method: string;
  path: string;
  /** Absent only on a gateway line for a request it rewrote: the platform answers it, not the gateway. */
  status?: number;
  bytes?: number;
  durationMs: number;
  cache?: string;
  /** Gateway lines: the request was admitted and handed on, by `rewrite` or `fetch` (decision: CDN-cached bodies). */
  forwarded?: string;
  /** MCP lines: the tool a tools/call named (decision: MCP). */
  tool?: string;
  /** A 401 of a key the access data knows: its id (never the key nor its hash) and why it was refused. */
  keyId?: string;
  keyRefused?: RefusedKey["reason"];
}

/** The log path: the target without its query, bounded (a query may carry cursors; a path may be 16 KB). */
const MAX_LOGGED_PATH = 300;

/**
 * Milliseconds since `started`, to the microsecond (process.hrtime: `performance` loads perf_hooks, ~1.5 ms of a
 * cold start).
 */
function elapsedMs(started: bigint): number {
  return Number((process.hrtime.bigint() - started) / 1000n) / 1000;
}

/** What one request's line says. */
export interface Served {
  requestId: string;
  method: string;
  url: string;
  status?: number;
  bytes?: number;
  organization?: string;
  cache?: string;
  forwarded?: string;
  tool?: string;
  /** A known key refused (a 401): named by id on its line. */
  key?: RefusedKey;
}

/** The log step for `onLog`; undefined when nothing is logged, so the clock is never read. */
export function requestLogger(onLog: ((entry: RequestLog) => void) | undefined) {
  if (!onLog) return undefined;
  return {
    start: () => process.hrtime.bigint(),
    write(started: bigint, served: Served): void {
      const queryAt = served.url.indexOf("?");
      const line: RequestLog = {
        requestId: served.requestId,
        organization: served.organization,
        method: served.method,
        path: (queryAt === -1 ? served.url : served.url.slice(0, queryAt)).slice(0, MAX_LOGGED_PATH),
        status: served.status,
        bytes: served.bytes,
        durationMs: elapsedMs(started),
        cache: served.cache,
        forwarded: served.forwarded,
        tool: served.tool,
      };
      // Only a refusal's line has these: every other line keeps its shape.
      if (served.key) {
        line.keyId = served.key.id;
        line.keyRefused = served.key.reason;
      }
      onLog(line);
    },
  };
}
