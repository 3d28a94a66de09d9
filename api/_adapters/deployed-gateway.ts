/**
 * The gateway as deployed (the project's middleware.ts), configured from the environment the way
 * the function is (environment.ts) and created on the first request. The snapshot id comes from
 * the manifest Vercel bundles beside the middleware (it traces the file from middleware.ts), or
 * with markets each market's from the bundled markets' index (gateway-markets.ts), the
 * secret from the file the build generates, bundled the same way (gateway-secret.ts), fetch
 * mode's origin from GATEWAY_ORIGIN or VERCEL_URL (gateway-origin.ts), and usage's store from the
 * rate limiter's variables (deployed-usage.ts).
 */
import { readFileSync } from "node:fs";
import { memoryRateLimiter } from "../_core/gate/rate-limit.js";
import { SnapshotError } from "../_core/format/primitives/errors.js";
import { MANIFEST_FILE, MARKETS_INDEX_FILE } from "../_core/format/primitives/files.js";
import { parseManifest } from "../_core/format/layout/manifest.js";
import { type MarketsIndex, parseMarketsIndex } from "../_core/format/layout/markets-index.js";
import { deferredOperationLog } from "../_core/log/request-log.js";
import { deployedUsage, flushAfter } from "./deployed-usage.js";
import { accessFromEnvironment, corsFromEnvironment, limiterFromEnvironment } from "./environment.js";
import { resolveGatewayOrigin } from "./gateway-origin.js";
import { resolveGatewaySecret } from "./gateway-secret.js";
import { createGateway, FORWARD_MODES, type ForwardMode, type Gateway } from "./gateway.js";

/** GATEWAY_MODE: `rewrite` (the default) or `fetch`. */
export function forwardModeOf(value: string | undefined): ForwardMode {
  const mode = value?.trim() || "rewrite";
  if ((FORWARD_MODES as readonly string[]).includes(mode)) return mode as ForwardMode;
  throw new Error(`GATEWAY_MODE must be one of ${FORWARD_MODES.join(", ")}, not ${JSON.stringify(value)}`);
}

/** Reads the snapshot id once; an unreadable manifest is a 503 for this request and read again for the next. */
function snapshotIdFrom(manifest: URL): () => string {
  let id: string | undefined;
  return () => {
    if (id !== undefined) return id;
    let text: string;
    try {
      text = readFileSync(manifest, "utf8");
    } catch (error) {
      throw new SnapshotError(
        MANIFEST_FILE,
        `cannot be read beside the gateway (${(error as NodeJS.ErrnoException).code})`,
      );
    }
    id = parseManifest(text).snapshotId;
    return id;
  };
}

/**
 * Reads the bundled markets' index once (decision: markets, deployed per market): undefined for good
 * when there is none (a deployment of one snapshot); one that cannot be read is a 503 for this
 * request and read again for the next.
 */
function marketsIndexFrom(file: URL): () => MarketsIndex | undefined {
  let read: { index: MarketsIndex | undefined } | undefined;
  return () => {
    if (read) return read.index;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT") throw new SnapshotError(MARKETS_INDEX_FILE, `cannot be read beside the gateway (${code})`);
      read = { index: undefined };
      return undefined;
    }
    read = { index: parseMarketsIndex(text) };
    return read.index;
  };
}

/** Files bundled beside the middleware, by URLs Vercel can trace. */
export interface BundledFiles {
  manifest: URL;
  secret: URL;
  /** The markets' index of a snapshot with markets (none: the deployment serves one snapshot). */
  markets?: URL;
}

/** What tests change: the clock the access data's refresh runs on (default Date.now), and the instance's stop. */
export interface DeployedGatewayOptions {
  clock?: () => number;
  /** How usage's last write is run when the instance stops; default on SIGTERM (deployed-usage.ts). */
  onStop?: (close: () => Promise<void>) => void;
}

function createDeployedGateway(env: NodeJS.ProcessEnv, files: BundledFiles, options: DeployedGatewayOptions): Gateway {
  const log = deferredOperationLog({ level: env.LOG_LEVEL });
  const { secret, problem } = resolveGatewaySecret(env, files.secret);
  const mode = forwardModeOf(env.GATEWAY_MODE);
  // Only fetch mode sends a request of its own; a rewrite stays with the platform.
  const fixed = mode === "fetch" ? resolveGatewayOrigin(env) : undefined;
  const usage = deployedUsage(env, { report: log.warn, onStop: options.onStop });
  const gateway = createGateway({
    mode,
    secret,
    secretProblem: problem,
    origin: fixed?.origin,
    originProblem: fixed?.problem,
    snapshotId: snapshotIdFrom(files.manifest),
    markets: files.markets && marketsIndexFrom(files.markets),
    defaultMarket: env.DEFAULT_MARKET || undefined,
    access: accessFromEnvironment(env, { onProblem: log.warn, clock: options.clock }),
    limiter: limiterFromEnvironment(env, log.warn) ?? memoryRateLimiter(),
    corsOrigins: corsFromEnvironment(env),
    now: () => new Date(),
    onError: log.error,
    onLog: log.request,
    usage,
  });
  return (request) => flushAfter(usage, gateway(request));
}

/** A gateway built from the environment on the first request, then reused. */
export function deployedGateway(
  env: NodeJS.ProcessEnv,
  files: BundledFiles,
  options: DeployedGatewayOptions = {},
): Gateway {
  let gateway: Gateway | undefined;
  return (request) => {
    gateway ??= createDeployedGateway(env, files, options);
    return gateway(request);
  };
}
