/**
 * The internal path the gateway forwards an admitted request to (decision: CDN-cached bodies):
 * `/_c/<snapshotId>/<coding>/v1/...`, carrying no key, so Vercel's CDN may cache its answer; the
 * snapshot id makes the URL immutable. The coding the caller takes is part of the URL because
 * Vercel's cache key is the method, the URL and the host, not Accept-Encoding (decision: codings
 * behind the CDN). Only the gateway reaches the path: it proves itself with a secret header, and
 * anything else arriving at the prefix is a 404.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { isMarketsList } from "../endpoints/market-path.js";
import { isMcpTarget } from "../endpoints/mcp-path.js";
import type { Coding } from "../respond/negotiate.js";

export const INTERNAL_PREFIX = "/_c";
/** The request header that carries the gateway's secret to the internal path. */
export const GATEWAY_TOKEN_HEADER = "x-listings-gateway";
/**
 * The markets the caller may use now, named by the gateway on a forwarded MCP message in a deployment
 * with markets (decision: markets, deployed per market): a market's function lists every market for
 * `list_markets`, `entitled` as the gateway decided it. Ids joined by commas (none: empty); never on
 * what the CDN may keep, which holds nothing that varies by caller.
 */
export const ENTITLED_MARKETS_HEADER = "x-listings-markets";
/** Vercel's CDN keeps a 200 of the internal path for a year: a deployment's data never changes. */
export const CDN_CACHE_CONTROL = "max-age=31536000, immutable";

const SNAPSHOT_ID = /^[0-9a-f]{32}$/;
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CODINGS: readonly string[] = ["identity", "gzip", "br"] satisfies Coding[];

export interface InternalTarget {
  snapshotId: string;
  /** The coding the body is sent in, whatever the request's Accept-Encoding says. */
  coding: Coding;
  publicTarget: string;
}

/** Whether a target (origin-form) is under the internal prefix. */
export function isInternalTarget(url: string): boolean {
  return url.startsWith(INTERNAL_PREFIX) && (url.length === INTERNAL_PREFIX.length || "/?".includes(url[3]!));
}

/** The internal target of a public one (`/v1/...` with its query as sent), in the coding the caller takes. */
export function internalTarget(snapshotId: string, coding: Coding, publicTarget: string): string {
  return `${INTERNAL_PREFIX}/${snapshotId}/${coding}${publicTarget}`;
}

/**
 * Whether a public target (origin-form) is under /v1, the MCP endpoint or the list of markets, the
 * only things the gateway forwards (the list only for one snapshot: with markets it answers it).
 */
export function isApiTarget(url: string): boolean {
  return url === "/v1" || /^\/v1[/?]/.test(url) || isMcpTarget(url) || isMarketsList(url);
}

/** The parts of an internal target; undefined when it is not one. */
export function parseInternalTarget(url: string): InternalTarget | undefined {
  const idEnd = url.indexOf("/", INTERNAL_PREFIX.length + 1);
  const codingEnd = idEnd === -1 ? -1 : url.indexOf("/", idEnd + 1);
  if (codingEnd === -1) return undefined;
  const snapshotId = url.slice(INTERNAL_PREFIX.length + 1, idEnd);
  const coding = url.slice(idEnd + 1, codingEnd);
  const publicTarget = url.slice(codingEnd);
  if (!SNAPSHOT_ID.test(snapshotId) || !CODINGS.includes(coding) || !isApiTarget(publicTarget)) return undefined;
  return { snapshotId, coding: coding as Coding, publicTarget };
}

/** Compares in constant time (over digests, so lengths do not leak either). */
export function isGatewayToken(given: string | undefined, secret: string | undefined): boolean {
  if (given === undefined || !secret) return false;
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(secret));
}

/** The markets the gateway named (ENTITLED_MARKETS_HEADER); undefined when it named none at all. */
export function entitledMarketsOf(value: string | undefined): ReadonlySet<string> | undefined {
  if (value === undefined) return undefined;
  return new Set(value.split(",").filter((id) => id !== ""));
}

/** A request id the gateway forwarded, when it is one of ours (a UUID); anything else is ignored. */
export function forwardedRequestId(value: string | undefined): string | undefined {
  return value !== undefined && REQUEST_ID.test(value) ? value : undefined;
}
