/**
 * The core as deployed on Vercel, configured from the environment and created on the first
 * request, so importing the function module costs almost nothing (a cold start).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { staticAccess, type AccessSource } from "../_core/access.js";
import { createHandler, type CoreRequest, type CoreResponse } from "../_core/handle-request.js";
import type { Handle } from "./node-listener.js";
import { rateLimiterFromEnvironment } from "../_core/redis-rate-limit.js";
import { deferredOperationLog } from "../_core/request-log.js";
import { SnapshotSource } from "../_core/format/snapshot-source.js";
import { parseCorsOrigins } from "../_core/cors.js";

/** Access data: ACCESS_JSON (the file's text, rotated by updating the variable) or ACCESS_FILE. */
function accessFromEnvironment(env: NodeJS.ProcessEnv): AccessSource {
  if (env.ACCESS_JSON) return staticAccess(env.ACCESS_JSON, "ACCESS_JSON");
  if (env.ACCESS_FILE) return staticAccess(readFileSync(env.ACCESS_FILE, "utf8"), env.ACCESS_FILE);
  throw new Error("neither ACCESS_JSON nor ACCESS_FILE is set");
}

/** Vercel may hand the function its own path (/api/v1/...) rather than the public one. */
function publicUrl(url: string): string {
  return url.startsWith("/api/v1/") || url.startsWith("/api/v1?") ? url.slice(4) : url;
}

/** Logs are pino lines written synchronously (LOG_LEVEL); REDIS_URL shares rate limits across instances. */
function createCore(env: NodeJS.ProcessEnv): Handle {
  const access = accessFromEnvironment(env);
  const log = deferredOperationLog({ level: env.LOG_LEVEL });
  return createHandler({
    // A deployment's snapshot never changes; the recheck only notices one going missing (a 503).
    snapshots: new SnapshotSource(env.SNAPSHOT_DIR ?? path.join(process.cwd(), "snapshot"), { recheckMs: 1000 }),
    access,
    limiter: rateLimiterFromEnvironment(env, log.warn),
    onLog: log.request,
    onError: log.error,
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
  });
}

/** A handle that builds the core from the environment once, then reuses it. */
export function deployedHandle(env: NodeJS.ProcessEnv = process.env): Handle {
  let handle: Handle | undefined;
  return (request: CoreRequest): CoreResponse | Promise<CoreResponse> => {
    handle ??= createCore(env);
    return handle({ ...request, url: publicUrl(request.url) });
  };
}
