/**
 * The core as deployed on Vercel, configured from the environment and created on the first
 * request, so importing the function module costs almost nothing (a cold start). It answers the
 * internal path the gateway forwards to, the health check, and (should anything reach it without
 * the gateway) /v1 itself, admitted as everywhere else; a bundled multi-market folder by market,
 * the internal path's snapshot id naming it (a market's function holds its own). It counts what its
 * own gate decides and settles what the gateway handed on (decision: usage), written after each
 * answer (deployed-usage.ts).
 */
import path from "node:path";
import { createHandler, type CoreRequest, type CoreResponse } from "../_core/handle-request.js";
import type { Handle } from "./node-listener.js";
import { deferredOperationLog } from "../_core/log/request-log.js";
import { SnapshotSource } from "../_core/format/read/snapshot-source.js";
import { isMarketsFolder } from "../_core/format/read/markets-folder.js";
import { MarketsSource } from "../_core/format/read/markets-source.js";
import { deployedUsage, flushAfter } from "./deployed-usage.js";
import { accessFromEnvironment, corsFromEnvironment, limiterFromEnvironment } from "./environment.js";
import { GATEWAY_SECRET_FILE, resolveGatewaySecret } from "./gateway-secret.js";

/** Vercel may hand the function its own path (/api/v1/...) rather than the public one. */
function publicUrl(url: string): string {
  return url.startsWith("/api/v1/") || url.startsWith("/api/v1?") ? url.slice(4) : url;
}

export interface DeployedOptions {
  /** The secret the build bundled (vercel.json's includeFiles); default: under the working directory, as on Vercel. */
  secretFile?: string;
  /** The clock the access data's refresh runs on (tests move it); default Date.now. */
  clock?: () => number;
  /** How usage's last write is run when the instance stops; default on SIGTERM (deployed-usage.ts). */
  onStop?: (close: () => Promise<void>) => void;
}

/** Logs are pino lines written synchronously (LOG_LEVEL). */
function createCore(env: NodeJS.ProcessEnv, options: DeployedOptions): Handle {
  const log = deferredOperationLog({ level: env.LOG_LEVEL });
  const { secret, problem } = resolveGatewaySecret(
    env,
    options.secretFile ?? path.join(process.cwd(), GATEWAY_SECRET_FILE),
  );
  // The internal path is then a 404 to everyone, the gateway included; said once per instance.
  if (problem) log.warn(problem);
  const usage = deployedUsage(env, { report: log.warn, onStop: options.onStop });
  const dir = env.SNAPSHOT_DIR ?? path.join(process.cwd(), "snapshot");
  // A market's function bundles the markets' index and its one market (decision: markets, deployed per market).
  const markets = isMarketsFolder(dir) ? new MarketsSource(dir, { recheckMs: 1000 }) : undefined;
  const handle = createHandler({
    // A deployment's snapshot never changes; the recheck only notices one going missing (a 503).
    snapshots: new SnapshotSource(dir, { recheckMs: 1000 }),
    folder: markets && { markets },
    defaultMarket: env.DEFAULT_MARKET,
    access: accessFromEnvironment(env, { onProblem: log.warn, clock: options.clock }),
    limiter: limiterFromEnvironment(env, log.warn),
    onLog: log.request,
    onError: log.error,
    corsOrigins: corsFromEnvironment(env),
    gatewaySecret: secret,
    usage,
  });
  return (request) => flushAfter(usage, handle(request));
}

/** A handle that builds the core from the environment once, then reuses it. */
export function deployedHandle(env: NodeJS.ProcessEnv = process.env, options: DeployedOptions = {}): Handle {
  let handle: Handle | undefined;
  return (request: CoreRequest): CoreResponse | Promise<CoreResponse> => {
    handle ??= createCore(env, options);
    return handle({ ...request, url: publicUrl(request.url) });
  };
}
