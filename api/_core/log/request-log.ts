/**
 * Operational logs as JSON lines through pino: one `request` line per request, plus errors,
 * rate-limiter outages and the snapshot taken into service (or not). Shared by the local server
 * (asynchronous writes) and the Vercel function (synchronous: a frozen serverless instance could
 * lose pending writes; pino docs, AWS Lambda).
 * pino is imported on demand, so the function's cold start never waits for it.
 */
import type { DestinationStream, LevelWithSilent, Logger } from "pino";
import { ServiceUnavailable } from "../respond/errors.js";
import { SnapshotError } from "../format/primitives/errors.js";
import type { RequestLog } from "../handle-request.js";
import type { Manifest } from "../format/layout/manifest.js";

/** What the line of a snapshot taken into service says of it. */
export type ServedSnapshot = Pick<Manifest, "snapshotId" | "counts" | "market">;

/** Most to least verbose; a level logs itself and everything after it. */
const LEVELS: readonly LevelWithSilent[] = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];
export const DEFAULT_LOG_LEVEL: LevelWithSilent = "info";
/** Lines held while pino loads; a burst beyond this during a cold start is dropped, not buffered without end. */
const MAX_QUEUED = 1_000;

export interface OperationLog {
  /** Undefined when request lines are off, so the core does not even assemble them. */
  request?: (entry: RequestLog) => void;
  error: (requestId: string, error: unknown) => void;
  warn: (message: string) => void;
  /** A snapshot taken into service (the first, or a rebuilt one): its id, its market if any, records per list. */
  serving: (snapshot: ServedSnapshot) => void;
  /**
   * A rebuilt snapshot that cannot be opened, why, and the id of the one that stays in service; of a
   * multi-market folder, the market's (or, for its index, the ids of every market's, `market` unset).
   */
  notTaken: (reason: string, servingId: string, market?: string) => void;
  /** Writes out anything buffered. */
  flush(): void;
}

export interface OperationLogOptions {
  /** LOG_LEVEL; an unknown value means the default, with a warning. */
  level?: string;
  /** Where lines go; stdout by default. */
  destination?: DestinationStream;
  /** Write stdout asynchronously (long-running servers) instead of blocking on each line. */
  asynchronous?: boolean;
}

function resolveLevel(requested: string | undefined): { level: LevelWithSilent; warning?: string } {
  const value = requested?.trim().toLowerCase() || DEFAULT_LOG_LEVEL;
  if ((LEVELS as readonly string[]).includes(value)) return { level: value as LevelWithSilent };
  return {
    level: DEFAULT_LOG_LEVEL,
    warning: `LOG_LEVEL ${JSON.stringify(requested)} is not one of ${LEVELS.join(", ")}; using ${DEFAULT_LOG_LEVEL}`,
  };
}

function logsRequests(level: LevelWithSilent): boolean {
  return LEVELS.indexOf(level) <= LEVELS.indexOf("info");
}

const SILENT: OperationLog = {
  error: () => {},
  warn: () => {},
  serving: () => {},
  notTaken: () => {},
  flush: () => {},
};

/** pino's loggers with the event's time passed in: a queued line keeps the time it happened. */
interface TimedWriter {
  request?: (time: string, entry: RequestLog) => void;
  error: (time: string, requestId: string, error: unknown) => void;
  warn: (time: string, message: string) => void;
  serving: (time: string, snapshot: ServedSnapshot) => void;
  notTaken: (time: string, reason: string, servingId: string, market?: string) => void;
  flush(): void;
}

async function loadWriter(options: OperationLogOptions, level: LevelWithSilent): Promise<TimedWriter> {
  const { pino } = await import("pino");
  const destination = options.destination ?? pino.destination({ dest: 1, sync: !options.asynchronous });
  // No pid or hostname (the platform adds its own) and our own `time`: small, stable lines.
  const logger: Logger = pino(
    { level, base: null, timestamp: false, formatters: { level: (label) => ({ level: label }) } },
    destination,
  );
  return {
    request: logsRequests(level) ? (time, entry) => logger.info({ time, ...entry }, "request") : undefined,
    error: (time, requestId, error) =>
      // A snapshot that cannot be read is an operating condition, not a bug: its reason (file names
      // relative to the snapshot folder), without a stack.
      error instanceof SnapshotError
        ? logger.error({ time, requestId, snapshot: error.message }, "snapshot unavailable")
        : error instanceof ServiceUnavailable
          ? logger.error({ time, requestId, problem: error.message }, "service unavailable")
          : logger.error(
              { time, requestId, err: error instanceof Error ? error : new Error(String(error)) },
              "request failed",
            ),
    warn: (time, message) => logger.warn({ time }, message),
    serving: (time, { snapshotId, counts, market }) =>
      logger.info({ time, ...(market && { market: market.id }), snapshotId, ...counts }, "snapshot in service"),
    notTaken: (time, reason, servingId, market) =>
      logger.error({ time, ...(market && { market }), snapshot: reason, snapshotId: servingId }, NOT_TAKEN),
    flush: () => logger.flush(),
  };
}

const NOT_TAKEN = "the rebuilt snapshot cannot be served; the previous one stays in service";

const now = () => new Date().toISOString();

/** Loads pino and creates the loggers; the line shape is documented in docs/operations.md. */
export async function createOperationLog(options: OperationLogOptions = {}): Promise<OperationLog> {
  const { level, warning } = resolveLevel(options.level);
  if (level === "silent") return SILENT;
  const writer = await loadWriter(options, level);
  if (warning) writer.warn(now(), warning);
  const request = writer.request;
  return {
    request: request && ((entry) => request(now(), entry)),
    error: (requestId, error) => writer.error(now(), requestId, error),
    warn: (message) => writer.warn(now(), message),
    serving: (snapshot) => writer.serving(now(), snapshot),
    notTaken: (reason, servingId, market) => writer.notTaken(now(), reason, servingId, market),
    flush: () => writer.flush(),
  };
}

/** Usable at once: lines logged while pino loads are queued, then written in order. */
export function deferredOperationLog(options: OperationLogOptions = {}): OperationLog {
  const { level, warning } = resolveLevel(options.level);
  if (level === "silent") return SILENT;
  let loaded: TimedWriter | undefined;
  const queue: Array<(writer: TimedWriter) => void> = [];
  const via = (write: (writer: TimedWriter) => void) => {
    if (loaded) write(loaded);
    else if (queue.length < MAX_QUEUED) queue.push(write);
  };
  loadWriter(options, level).then(
    (writer) => {
      loaded = writer;
      for (const write of queue.splice(0)) write(writer);
    },
    (error: unknown) => process.stderr.write(`logging is off: cannot load pino (${(error as Error).message})\n`),
  );
  const log: OperationLog = {
    request: logsRequests(level)
      ? (entry) => {
          const time = now();
          via((writer) => writer.request?.(time, entry));
        }
      : undefined,
    error: (requestId, error) => {
      const time = now();
      via((writer) => writer.error(time, requestId, error));
    },
    warn: (message) => {
      const time = now();
      via((writer) => writer.warn(time, message));
    },
    serving: (snapshot) => {
      const time = now();
      via((writer) => writer.serving(time, snapshot));
    },
    notTaken: (reason, servingId, market) => {
      const time = now();
      via((writer) => writer.notTaken(time, reason, servingId, market));
    },
    flush: () => loaded?.flush(),
  };
  if (warning) log.warn(warning);
  return log;
}
