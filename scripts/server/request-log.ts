/**
 * The local server's logs: pino JSON lines on stdout, written asynchronously so they stay off the
 * request path, and flushed when the process ends (pino flushes on exit; signals become exits here).
 */
import { deferredOperationLog, type OperationLog, type OperationLogOptions } from "../../api/_core/log/request-log.js";

let signalsHandled = false;

/** Exits on SIGINT/SIGTERM through process.exit, which runs pino's flush-on-exit hook. */
function exitOnSignals(): void {
  if (signalsHandled) return;
  signalsHandled = true;
  process.once("SIGINT", () => process.exit(130));
  process.once("SIGTERM", () => process.exit(143));
}

/** Logs for a long-running local server; LOG_LEVEL (default info) controls them, "silent" turns them off. */
export function requestLogger(options: OperationLogOptions = {}): OperationLog {
  const log = deferredOperationLog({ level: process.env.LOG_LEVEL, asynchronous: true, ...options });
  if (options.destination === undefined) exitOnSignals();
  return log;
}
