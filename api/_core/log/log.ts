/** The log step: one line per request, as the operation log (request-log.ts) writes it. Never carries the key. */

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
}

/** The log step for `onLog`; undefined when nothing is logged, so the clock is never read. */
export function requestLogger(onLog: ((entry: RequestLog) => void) | undefined) {
  if (!onLog) return undefined;
  return {
    start: () => process.hrtime.bigint(),
    write(started: bigint, served: Served): void {
      const queryAt = served.url.indexOf("?");
      onLog({
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
      });
    },
  };
}
