/** Turns bodies into responses: coding, entity tags, 304s and the headers every 200 carries. */
import { brotliCompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import { etagOf } from "./body-file.js";
import { chooseCoding, entityTag, matchesIfNoneMatch, type Coding } from "./negotiate.js";
import type { CachedBody } from "./snapshot-reader.js";

export const JSON_TYPE = "application/json; charset=utf-8";
/** Private: a shared cache must never answer for the key check. Short: data changes with each deploy. */
export const CACHE_CONTROL_OK = "private, max-age=60";
/** Bodies smaller than this are not worth compressing per request. */
const COMPRESS_MIN_BYTES = 1024;

export interface Outgoing {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** How the body was produced, for the request log. */
  cache?: "precomputed" | "composed" | "not-modified";
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
 * A precomputed body: the stored gzip goes out as is; other codings are derived from it once and
 * kept with it (`remember` counts them against the body cache's bound).
 */
export function sendStored(stored: CachedBody, conditions: Conditions, remember: (body: CachedBody) => void): Outgoing {
  const coding = chooseCoding(conditions.acceptEncoding);
  if (matchesIfNoneMatch(conditions.ifNoneMatch, stored.etag)) return notModified(stored.etag, coding);
  if (coding === "gzip") return { status: 200, headers: okHeaders(stored.etag, coding), body: stored.gzip, cache: "precomputed" };
  const known = coding === "br" ? stored.br : stored.identity;
  if (!known) {
    stored.identity ??= gunzipSync(stored.gzip);
    if (coding === "br") stored.br = brotli(stored.identity);
    remember(stored);
  }
  const body = coding === "br" ? stored.br! : stored.identity!;
  return { status: 200, headers: okHeaders(stored.etag, coding), body, cache: "precomputed" };
}

/** A page composed for a request URL, with the codings requests have needed (kept with it, like a stored body). */
export interface ComposedBody {
  etag: string;
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

/**
 * A composed body, compressed when the client accepts a coding and the body is worth it; a coding
 * made once is kept on the body (`remember` counts it against the cache's bound).
 */
export function sendComposed<B extends ComposedBody>(body: B, conditions: Conditions, remember: (body: B) => void): Outgoing {
  const coding = body.identity.length < COMPRESS_MIN_BYTES ? "identity" : chooseCoding(conditions.acceptEncoding);
  if (matchesIfNoneMatch(conditions.ifNoneMatch, body.etag)) return notModified(body.etag, coding);
  if (coding !== "identity" && !body[coding]) {
    if (coding === "gzip") body.gzip = gzipSync(body.identity, { level: 1 });
    else body.br = brotli(body.identity);
    remember(body);
  }
  return { status: 200, headers: okHeaders(body.etag, coding), body: body[coding]!, cache: "composed" };
}
