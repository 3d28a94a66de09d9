/**
 * The local server's logs: pino JSON lines on stdout, written asynchronously so they stay off the
 * request path, and flushed when the process ends (pino flushes on exit; signals become exits here,
 * after the last writes the server asked for: usage's).
 */
import { deferredOperationLog, type OperationLog, type OperationLogOptions } from "../../api/_core/log/request-log.js";

let signalsHandled = false;
/** Last writes to finish before a signal's exit (usage's counts). */
const beforeExit: Array<() => Promise<void>> = [];
/** How long a signal's exit waits for them: a stuck store never keeps the server from stopping. */
export const STOP_WAIT_MS = 2_000;

/** Runs `task` when a signal stops the server, before it exits (at most STOP_WAIT_MS for all of them). */
export function onStop(task: () => Promise<void>): void {
  beforeExit.push(task);
}

function exitAfterTasks(code: number): void {
  const tasks = Promise.allSettled(beforeExit.splice(0).map((task) => task()));
  const bound = new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref());
  void Promise.race([tasks, bound]).then(() => process.exit(code));
}

/** Exits on SIGINT/SIGTERM through process.exit, which runs pino's flush-on-exit hook. */
function exitOnSignals(): void {
  if (signalsHandled) return;
  signalsHandled = true;
  process.once("SIGINT", () => exitAfterTasks(130));
  process.once("SIGTERM", () => exitAfterTasks(143));
}

/** Logs for a long-running local server; LOG_LEVEL (default info) controls them, "silent" turns them off. */
export function requestLogger(options: OperationLogOptions = {}): OperationLog {
  const log = deferredOperationLog({ level: process.env.LOG_LEVEL, asynchronous: true, ...options });
  if (options.destination === undefined) exitOnSignals();
  return log;
}
