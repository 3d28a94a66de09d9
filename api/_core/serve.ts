/**
 * Serving an admitted request: find its endpoint by path (endpoints/routes.ts), and let it answer
 * with a stored body of the snapshot or a page composed from it, in the coding the client takes.
 * The request path stays synchronous from here on: every read is a positioned read of a file in
 * the page cache.
 */
import { matchRoute } from "./endpoints/routes.js";
import { Serving } from "./endpoints/serving.js";
import type { PagePool } from "./format/primitives/page-buffer.js";
import type { SnapshotSource } from "./format/read/snapshot-source.js";
import { requireReadMethod, unknownEndpoint } from "./respond/errors.js";
import { sendBody, type Conditions, type Outgoing } from "./respond/respond.js";
import type { ResponseCache } from "./respond/response-cache.js";

export interface ServeRequest {
  method: string;
  url: string;
  conditions: Conditions;
  /** A page of showtimes as find_showtimes lists it (decision: MCP), not as `/v1` answers it. */
  listing?: boolean;
}

/**
 * What the response cache keeps a request's body under: its URL; a listing's apart from its page's
 * (no URL starts with a space).
 */
const cacheKeyOf = (request: ServeRequest) => (request.listing ? ` listing ${request.url}` : request.url);

/** Serves a request; composed pages are written into buffers `pages` lends. */
export function serve(request: ServeRequest, source: SnapshotSource, cache: ResponseCache, pages: PagePool): Outgoing {
  requireReadMethod(request.method);
  const { url, conditions } = request;
  const queryAt = url.indexOf("?");
  const route = matchRoute(queryAt === -1 ? url : url.slice(0, queryAt));
  if (!route) throw unknownEndpoint();
  const snapshot = source.current();
  cache.use(snapshot);
  const key = cacheKeyOf(request);
  const serving = new Serving(snapshot, cache, pages, key, conditions, request.listing);
  // A URL seen before names the same stored body (its key depends on the request alone), or, on
  // the same snapshot, composes the same bytes: either skips parsing and reading.
  const memo = cache.memoOf(key);
  const remembered = memo === undefined ? undefined : serving.storedBody(memo);
  if (remembered) return serving.sendStored(memo!, remembered);
  const composed = cache.composedPage(key);
  if (composed)
    return sendBody(composed, conditions, "composed", (coding) => cache.encode(composed, key, "composed", coding));
  return route.endpoint.answer(route.rawIds, queryAt === -1 ? "" : url.slice(queryAt + 1), serving);
}
