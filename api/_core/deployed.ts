/**
 * The core as deployed on Vercel, configured from the environment and created on the first
 * request, so importing the function module costs almost nothing (cold start, scale issue).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { staticAccess, type AccessSource } from "./access.js";
import { createHandler, type CoreRequest, type CoreResponse } from "./handle-request.js";
import type { Handle } from "./node-adapter.js";
import { SnapshotReader } from "./snapshot-reader.js";

/** Access data: ACCESS_JSON (the file's text, rotated by updating the variable) or ACCESS_FILE. */
function accessFromEnvironment(env: NodeJS.ProcessEnv): AccessSource {
  if (env.ACCESS_JSON) return staticAccess(env.ACCESS_JSON, "ACCESS_JSON");
  if (env.ACCESS_FILE) return staticAccess(readFileSync(env.ACCESS_FILE, "utf8"), env.ACCESS_FILE);
  throw new Error("neither ACCESS_JSON nor ACCESS_FILE is set");
}

function logLine(entry: object): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
}

/** Vercel may hand the function its own path (/api/v1/...) rather than the public one. */
function publicUrl(url: string): string {
  return url.startsWith("/api/v1/") || url.startsWith("/api/v1?") ? url.slice(4) : url;
}

/** A handle that builds the core from the environment once, then reuses it. */
export function deployedHandle(env: NodeJS.ProcessEnv = process.env): Handle {
  let handle: Handle | undefined;
  return async (request: CoreRequest): Promise<CoreResponse> => {
    handle ??= createHandler({
      reader: new SnapshotReader(env.SNAPSHOT_DIR ?? path.join(process.cwd(), "snapshot")),
      access: accessFromEnvironment(env),
      onLog: env.LOG_LEVEL === "silent" ? undefined : (entry) => logLine({ level: "info", ...entry }),
      onError: (requestId, error) => logLine({ level: "error", requestId, error: String((error as Error)?.stack ?? error) }),
    });
    return handle({ ...request, url: publicUrl(request.url) });
  };
}
