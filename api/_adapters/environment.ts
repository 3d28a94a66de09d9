/**
 * What the deployed pieces (the function and the gateway middleware) read from the environment
 * alike: the access data, CORS origins, the rate limiter (the gateway's secret: gateway-secret.ts).
 * One reading, so the two never disagree.
 */
import { readFileSync } from "node:fs";
import { AccessIndex, staticAccess, type AccessSource } from "../_core/gate/access.js";
import { parseAccessFile } from "../_core/gate/access-file.js";
import { parseCorsOrigins, type CorsOrigins } from "../_core/gate/cors.js";
import type { RateLimiter } from "../_core/gate/rate-limit.js";
import { storeLimiterFromEnvironment } from "./rate-limit-stores.js";
import { edgeConfigAccess } from "./edge-config-access.js";

/** The deployment's access data as text: ACCESS_JSON (the file's text) or the file ACCESS_FILE names. */
export function accessTextFromEnvironment(env: NodeJS.ProcessEnv): { text: string; source: string } {
  if (env.ACCESS_JSON) return { text: env.ACCESS_JSON, source: "ACCESS_JSON" };
  if (env.ACCESS_FILE) return { text: readFileSync(env.ACCESS_FILE, "utf8"), source: env.ACCESS_FILE };
  throw new Error("neither ACCESS_JSON nor ACCESS_FILE is set");
}

export interface AccessOptions {
  /** Problems reading Edge Config, once each (not once per request). */
  onProblem?: (message: string) => void;
  /** Milliseconds since any epoch, for the age of what was read (tests move it); default Date.now. */
  clock?: () => number;
}

/**
 * The access data in force: the deployment's, or, when EDGE_CONFIG is set, the newest of it and
 * the copy kept in Edge Config (written by `keys --push`), read at run time so a change needs no redeploy.
 */
export function accessFromEnvironment(env: NodeJS.ProcessEnv, options: AccessOptions = {}): AccessSource {
  const { text, source } = accessTextFromEnvironment(env);
  if (!env.EDGE_CONFIG) return staticAccess(text, source);
  const deployed = new AccessIndex(parseAccessFile(text, source));
  return edgeConfigAccess(deployed, env.EDGE_CONFIG, { onProblem: options.onProblem, now: options.clock });
}

export function corsFromEnvironment(env: NodeJS.ProcessEnv): CorsOrigins | undefined {
  return parseCorsOrigins(env.CORS_ORIGINS);
}

/** A shared limiter when one is configured (the store table's first selected row); undefined: in memory. */
export function limiterFromEnvironment(
  env: NodeJS.ProcessEnv,
  onStateChange?: (message: string) => void,
): RateLimiter | undefined {
  return storeLimiterFromEnvironment(env, onStateChange);
}
