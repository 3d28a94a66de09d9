/** Request log lines: one JSON object per request on stdout, controlled by LOG_LEVEL. */
import type { RequestLog } from "../api/_core/handle-request.js";

/** A logger for the local server; silent when LOG_LEVEL is "silent", "error" or "warn". */
export function requestLogger(level = process.env.LOG_LEVEL ?? "info"): ((entry: RequestLog) => void) | undefined {
  if (!["info", "debug", "trace"].includes(level)) return undefined;
  return (entry) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: "info", ...entry })}\n`);
}
