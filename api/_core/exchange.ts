/** What the core takes and gives: a plain request in, status, headers and bytes out (no runtime's types). */
import { originForm } from "./endpoints/parse-request.js";
import { withoutFragment } from "./endpoints/request-target.js";

export interface CoreRequest {
  method: string;
  /**
   * Path and query as sent, still percent-encoded (absolute-form is accepted: see originForm); a
   * fragment, if sent, is dropped on the way in (inOriginForm).
   */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /**
   * Reads the body, at most `maxBytes` of it (undefined past that, read no further); only the MCP
   * endpoint asks (decision: MCP). The adapter that received the request supplies it; absent: no body.
   */
  readBody?: (maxBytes: number) => Promise<Buffer | undefined>;
}

export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /**
   * Call once the body has been written (or will never be): its memory goes back to a pool. Until
   * then the body stays valid; a response never released is collected as usual.
   */
  release?: () => void;
}

/** The core as a function: synchronous unless the rate limiter is not (a shared store). */
export type Handler = (request: CoreRequest) => CoreResponse | Promise<CoreResponse>;

/** A header's value; repeated fields joined as HTTP joins them. */
export function headerOf(request: CoreRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * The Authorization field: one value, or every value when the request repeats it (decision: one Authorization
 * header).
 */
export function authorizationOf(request: CoreRequest): string | readonly string[] | undefined {
  const value = request.headers.authorization;
  return Array.isArray(value) && value.length === 1 ? value[0] : value;
}

/**
 * The request with its target in origin-form and without a fragment, before any step reads it or a
 * cache is keyed by it (the same object when it already is).
 */
export function inOriginForm(request: CoreRequest): CoreRequest {
  const url = originForm(withoutFragment(request.url));
  return url === request.url ? request : { ...request, url };
}
