/** The local Node server: the same request core as the Vercel function, plus the public docs. */
// The callback API: node:fs is loaded anyway, fs/promises would add ~2 ms to a cold start.
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileAccess } from "../../api/_core/gate/access.js";
import { createHandler, type CoreOptions, type RequestLog } from "../../api/_core/handle-request.js";
import { LINGER_MS, toNodeListener } from "../../api/_adapters/node-listener.js";
import { withoutFragment } from "../../api/_core/endpoints/request-target.js";
import type { RateLimiter } from "../../api/_core/gate/rate-limit.js";
import type { MarketsSource } from "../../api/_core/format/read/markets-source.js";
import type { SnapshotSource } from "../../api/_core/format/read/snapshot-source.js";
import type { UsageRecorder } from "../../api/_core/usage/usage-counter.js";
import { answerProtocolErrors, refusedForMissingHost, SERVER_OPTIONS } from "./protocol-errors.js";
import { defaultMarketProblem } from "./default-market.js";
import { FolderSource, loggedMarkets, loggedSnapshots, type SnapshotLog, watchSnapshot } from "./snapshot-watch.js";

export interface ServerOptions {
  snapshotDir: string;
  accessFile: string;
  port: number;
  host?: string;
  publicDir?: string;
  limiter?: RateLimiter;
  /** Counts every request the gate decides (decision: usage; usage-counting.ts writes it). */
  usage?: UsageRecorder;
  onLog?: (entry: RequestLog) => void;
  /** Test overrides passed through to the core: a fixed clock, a snapshot source, a quiet error sink. */
  now?: CoreOptions["now"];
  snapshots?: CoreOptions["snapshots"];
  onError?: CoreOptions["onError"];
  /** Origins allowed to call from a browser (CORS_ORIGINS, parsed); undefined: no CORS. */
  corsOrigins?: CoreOptions["corsOrigins"];
  /**
   * Told, once at start, why the snapshot cannot be served (it is then a 503 until it can); in a
   * multi-market folder, why a market cannot be (`market`: that market's requests alone are 503s).
   */
  onSnapshotProblem?: (reason: string, market?: string) => void;
  /** The market /v1 and /mcp serve when the folder holds markets (decision: markets); checked at start. */
  defaultMarket?: string;
  /** Told of each snapshot taken into service, and of a rebuilt one that cannot be (the last stays). */
  snapshotLog?: SnapshotLog;
  /** How often to look for a rebuilt snapshot (tests make it short). */
  snapshotRecheckMs?: number;
  /** How long a request's headers may take to arrive before it is answered 408 (decision: slow requests). */
  headersTimeoutMs?: number;
  /** How long a whole request, headers and body, may take to arrive before it is answered 408. */
  requestTimeoutMs?: number;
  /** How long a connection closed after a refusal still reads what the client sends (LINGER_MS). */
  lingerMs?: number;
}

/** How often a running server looks for a rebuilt snapshot: a stat per request cost 3% of a page's time. */
const SNAPSHOT_RECHECK_MS = 1000;

/** Deadlines for a request to arrive (decision: slow requests); Node's own are 60 s and 300 s. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;

/** Node's timeouts for the deadlines, checked often enough that none runs more than a second over. */
function timeoutsOf(options: ServerOptions) {
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // Node refuses a headers deadline past the request's.
  const headersTimeout = Math.min(options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout);
  const connectionsCheckingInterval = Math.max(10, Math.min(1000, headersTimeout / 4));
  return { requestTimeout, headersTimeout, connectionsCheckingInterval };
}

/** Public files served without a key, as Vercel serves public/ (documentation only). */
interface PublicFile {
  file: string;
  type: string;
}

const PUBLIC_FILES: Record<string, PublicFile> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/index.html": { file: "index.html", type: "text/html; charset=utf-8" },
  "/openapi.json": { file: "openapi.json", type: "application/json; charset=utf-8" },
  "/redoc.standalone.js": { file: "redoc.standalone.js", type: "text/javascript; charset=utf-8" },
  "/redoc.standalone.js.LICENSE.txt": { file: "redoc.standalone.js.LICENSE.txt", type: "text/plain; charset=utf-8" },
};

/** The public file a request asks for, if it is a GET or HEAD of one (a fragment dropped, as the core drops it). */
function publicFileOf(req: IncomingMessage): PublicFile | undefined {
  const entry = PUBLIC_FILES[withoutFragment(req.url ?? "/").split("?")[0]!];
  return entry && (req.method === "GET" || req.method === "HEAD") ? entry : undefined;
}

async function servePublic(
  publicDir: string,
  entry: PublicFile,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  try {
    const body = await new Promise<Buffer>((resolve, reject) =>
      readFile(path.join(publicDir, entry.file), (error, data) => (error ? reject(error) : resolve(data))),
    );
    res.writeHead(200, {
      "content-type": entry.type,
      "content-length": body.length,
      "cache-control": "public, max-age=300",
      // Like every API response (decision: headers of the public files).
      "x-request-id": randomUUID(),
      "x-content-type-options": "nosniff",
    });
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  } catch {
    return false;
  }
}

/** Opens the snapshot, or every market, telling what cannot be served (its requests answer 503 until it can). */
function openAtStart(
  markets: MarketsSource | undefined,
  snapshots: SnapshotSource,
  tell: ServerOptions["onSnapshotProblem"],
): void {
  const attempt = (open: () => unknown, market?: string) => {
    try {
      open();
      return true;
    } catch (error) {
      tell?.((error as Error).message, market);
      return false;
    }
  };
  if (!markets) attempt(() => snapshots.current());
  else if (attempt(() => markets.markets()))
    for (const [id, { source }] of markets.markets()) attempt(() => source.current(), id);
}

/**
 * Starts the server; throws (before listening) when the access file is missing or malformed, or the
 * default market is not one the folder serves.
 */
export async function startServer(options: ServerOptions): Promise<{ server: Server; url: string }> {
  // A missing, unreadable or broken file: one line per problem and one when it is read again.
  const access = fileAccess(options.accessFile, (message) => process.stderr.write(`${message}\n`));
  const recheckMs = options.snapshotRecheckMs ?? SNAPSHOT_RECHECK_MS;
  const problem = defaultMarketProblem(options.snapshotDir, options.defaultMarket);
  if (problem) throw new Error(problem);
  const snapshots = options.snapshots ?? loggedSnapshots(options.snapshotDir, recheckMs, options.snapshotLog);
  // A folder of ours may hold markets, now or after a rebuild; a source a test gives is one snapshot.
  const folder = options.snapshots
    ? undefined
    : new FolderSource(options.snapshotDir, snapshots, () =>
        loggedMarkets(options.snapshotDir, recheckMs, options.snapshotLog),
      );
  const handle = createHandler({
    snapshots,
    folder,
    defaultMarket: options.defaultMarket,
    access,
    limiter: options.limiter,
    usage: options.usage,
    now: options.now,
    onLog: options.onLog,
    corsOrigins: options.corsOrigins,
    onError:
      options.onError ??
      ((requestId, error) =>
        process.stderr.write(
          `${JSON.stringify({ level: "error", requestId, error: String((error as Error)?.stack ?? error) })}\n`,
        )),
  });
  const listener = toNodeListener(handle, { closeAfterRefusals: { lingerMs: options.lingerMs ?? LINGER_MS } });
  const publicDir = options.publicDir ?? path.resolve("public");
  const server = createServer({ ...SERVER_OPTIONS, ...timeoutsOf(options) }, (req, res) => {
    if (refusedForMissingHost(req, res)) return;
    // An API request goes straight to the core: no promise spent on the public-file check. Neither
    // path rejects: the core and the adapter turn every failure into a response.
    const entry = publicFileOf(req);
    if (entry) void servePublic(publicDir, entry, req, res).then((served) => (served ? undefined : listener(req, res)));
    else listener(req, res);
  });
  answerProtocolErrors(server);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  // Open the snapshot while the first client connects rather than inside its request. A missing or
  // broken snapshot is not an error here: requests answer 503 until one is built.
  setImmediate(() => openAtStart(folder?.markets, snapshots, options.onSnapshotProblem));
  watchSnapshot(server, folder ?? snapshots, recheckMs);
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://${options.host ?? "127.0.0.1"}:${port}` };
}
