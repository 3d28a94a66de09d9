/** Turns a body into a response: the coding, the entity tag, 304s and the headers every 200 carries. */
import { brotliCompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import { chooseCoding, entityTag, matchesIfNoneMatch, type Coding } from "./negotiate.js";
import type { CachedBody } from "./response-cache.js";

export const JSON_TYPE = "application/json; charset=utf-8";
/** Private: a shared cache must never answer for the key check. Short: data changes with each deploy. */
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
    vary: "Authorization, Accept-Encoding",
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

function brotli(identity: Buffer): Buffer {
  return brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
}

/**
 * Sends a body in the coding the client prefers: gzip first (stored bodies are kept that way),
 * then brotli, then identity. A coding made now is kept on the body; `recount` then charges it to
 * the cache that holds the body.
 */
export function sendBody(
  body: CachedBody,
  conditions: Conditions,
  label: "precomputed" | "composed",
  recount: () => void,
): Outgoing {
  const small = body.identity !== undefined && body.identity.length < COMPRESS_MIN_BYTES && body.gzip === undefined;
  const coding = small ? "identity" : chooseCoding(conditions.acceptEncoding);
  if (matchesIfNoneMatch(conditions.ifNoneMatch, body.etag)) return notModified(body.etag, coding);
  if (!body[coding]) {
    body.identity ??= gunzipSync(body.gzip!);
    if (coding === "gzip") body.gzip = gzipSync(body.identity, { level: 1 });
    if (coding === "br") body.br = brotli(body.identity);
    recount();
  }
  return { status: 200, headers: okHeaders(body.etag, coding), body: body[coding]!, cache: label };
}
