/**
 * The respond step: a body in the coding the client takes, with its entity tag, 304s and the
 * headers every 200 carries; then the headers every response carries.
 */
import type { CoreResponse } from "../exchange.js";
import { chooseCoding, entityTag, matchesIfNoneMatch, type Coding } from "./negotiate.js";

export const JSON_TYPE = "application/json; charset=utf-8";
/**
 * For browsers: private (a shared cache the gateway does not sit in front of must not answer for
 * the key check), short (data changes with each deploy).
 */
export const CACHE_CONTROL_OK = "private, max-age=60";
/** Composed bodies smaller than this are not worth compressing per request. */
const COMPRESS_MIN_BYTES = 1024;

/** How a body was produced, for the request log. */
export type CacheLabel = "precomputed" | "composed" | "not-modified";

export interface Outgoing {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  cache?: CacheLabel;
  /** Gives the body's memory back once it is written (a composed page's lent buffer). */
  release?: () => void;
}

export interface Conditions {
  acceptEncoding?: string;
  ifNoneMatch?: string;
}

function okHeaders(tag: string, coding: Coding): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": JSON_TYPE,
    "cache-control": CACHE_CONTROL_OK,
    etag: entityTag(tag, coding),
  };
  if (coding !== "identity") headers["content-encoding"] = coding;
  return headers;
}

function notModified(tag: string, coding: Coding): Outgoing {
  const headers = okHeaders(tag, coding);
  delete headers["content-encoding"];
  return { status: 304, headers, body: Buffer.alloc(0), cache: "not-modified" };
}

/**
 * A body as the caches hold it: its tag, the coding it was found in (`identity` or `gzip`), and the others on
 * demand.
 */
export interface BodyInCodings {
  etag: string;
  gzip?: Buffer;
  identity?: Buffer;
  br?: Buffer;
}

/**
 * Sends a body in the coding the client prefers: gzip first (stored bodies are kept that way),
 * then brotli, then identity. `encode` gives the body in a coding it lacks; the cache that owns
 * the body makes it (and counts its bytes).
 */
export function sendBody(
  body: BodyInCodings,
  conditions: Conditions,
  label: "precomputed" | "composed",
  encode: (coding: Coding) => Buffer,
): Outgoing {
  const small = body.identity !== undefined && body.identity.length < COMPRESS_MIN_BYTES && body.gzip === undefined;
  const coding = small ? "identity" : chooseCoding(conditions.acceptEncoding);
  if (matchesIfNoneMatch(conditions.ifNoneMatch, body.etag)) return notModified(body.etag, coding);
  return { status: 200, headers: okHeaders(body.etag, coding), body: body[coding] ?? encode(coding), cache: label };
}

const EMPTY = Buffer.alloc(0);

/**
 * Adds what every response carries whoever sends it (nosniff, the length; the request id when it
 * is known here) and leaves out the body a HEAD or a 304 has not. Nothing here varies by caller
 * except the request id: the caller's headers are added by the gate (caller-headers.ts).
 */
export function finishResponse(method: string, requestId: string | undefined, outgoing: Outgoing): CoreResponse {
  const headers = outgoing.headers;
  if (requestId !== undefined) headers["x-request-id"] = requestId;
  headers["x-content-type-options"] = "nosniff";
  // RFC 9110 §8.6: no Content-Length on a 204 or 304.
  if (outgoing.status !== 304 && outgoing.status !== 204) headers["content-length"] = String(outgoing.body.length);
  if (method === "HEAD" || outgoing.status === 304 || outgoing.status === 204) {
    outgoing.release?.();
    return { status: outgoing.status, headers, body: EMPTY };
  }
  return { status: outgoing.status, headers, body: outgoing.body, release: outgoing.release };
}
