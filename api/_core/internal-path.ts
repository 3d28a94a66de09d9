/**
 * The internal path the gateway forwards an admitted request to (decision: CDN-cached bodies):
 * `/_c/<snapshotId>/v1/...`, carrying no key, so Vercel's CDN may cache its answer; the snapshot
 * id makes the URL immutable. Only the gateway reaches it: it proves itself with a secret header,
 * and anything else arriving at the prefix is a 404.
 */
import { createHash, timingSafeEqual } from "node:crypto";

export const INTERNAL_PREFIX = "/_c";
/** The request header that carries the gateway's secret to the internal path. */
export const GATEWAY_TOKEN_HEADER = "x-listings-gateway";
/** Vercel's CDN keeps a 200 of the internal path for a year: a deployment's data never changes. */
export const CDN_CACHE_CONTROL = "max-age=31536000, immutable";

const SNAPSHOT_ID = /^[0-9a-f]{32}$/;
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether a target (origin-form) is under the internal prefix. */
export function isInternalTarget(url: string): boolean {
  return url.startsWith(INTERNAL_PREFIX) && (url.length === INTERNAL_PREFIX.length || "/?".includes(url[3]!));
}

/** The internal target of a public one (`/v1/...` with its query as sent). */
export function internalTarget(snapshotId: string, publicTarget: string): string {
  return `${INTERNAL_PREFIX}/${snapshotId}${publicTarget}`;
}

/** Whether a public target (origin-form) is under /v1, the only thing the gateway forwards. */
export function isApiTarget(url: string): boolean {
  return url === "/v1" || /^\/v1[/?]/.test(url);
}

/** The snapshot id and public target of an internal target; undefined when it is not one. */
export function parseInternalTarget(url: string): { snapshotId: string; publicTarget: string } | undefined {
  const idEnd = url.indexOf("/", INTERNAL_PREFIX.length + 1);
  if (idEnd === -1) return undefined;
  const snapshotId = url.slice(INTERNAL_PREFIX.length + 1, idEnd);
  const publicTarget = url.slice(idEnd);
  if (!SNAPSHOT_ID.test(snapshotId) || !isApiTarget(publicTarget)) return undefined;
  return { snapshotId, publicTarget };
}

/** Compares in constant time (over digests, so lengths do not leak either). */
export function isGatewayToken(given: string | undefined, secret: string | undefined): boolean {
  if (given === undefined || !secret) return false;
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(secret));
}

/** A request id the gateway forwarded, when it is one of ours (a UUID); anything else is ignored. */
export function forwardedRequestId(value: string | undefined): string | undefined {
  return value !== undefined && REQUEST_ID.test(value) ? value : undefined;
}
