/**
 * The core as deployed on Vercel, configured from the environment and created on the first
 * request, so importing the function module costs almost nothing (a cold start). It answers the
 * internal path the gateway forwards to, the health check, and (should anything reach it without
 * the gateway) /v1 itself, admitted as everywhere else.
 */
import path from "node:path";
import { createHandler, type CoreRequest, type CoreResponse } from "../_core/handle-request.js";
import type { Handle } from "./node-listener.js";
import { deferredOperationLog } from "../_core/request-log.js";
import { SnapshotSource } from "../_core/format/read/snapshot-source.js";
import { accessFromEnvironment, corsFromEnvironment, gatewaySecretOf, limiterFromEnvironment } from "./environment.js";

/** Vercel may hand the function its own path (/api/v1/...) rather than the public one. */
function publicUrl(url: string): string {
  return url.startsWith("/api/v1/") || url.startsWith("/api/v1?") ? url.slice(4) : url;
}

/** Logs are pino lines written synchronously (LOG_LEVEL). */
function createCore(env: NodeJS.ProcessEnv): Handle {
  const log = deferredOperationLog({ level: env.LOG_LEVEL });
  return createHandler({
    // A deployment's snapshot never changes; the recheck only notices one going missing (a 503).
    snapshots: new SnapshotSource(env.SNAPSHOT_DIR ?? path.join(process.cwd(), "snapshot"), { recheckMs: 1000 }),
    access: accessFromEnvironment(env, log.warn),
    limiter: limiterFromEnvironment(env, log.warn),
    onLog: log.request,
    onError: log.error,
    corsOrigins: corsFromEnvironment(env),
    gatewaySecret: gatewaySecretOf(env),
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
