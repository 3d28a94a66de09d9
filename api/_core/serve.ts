/**
 * Serving an admitted request: route it, find its body (stored in the snapshot, or composed from
 * it), and send that body in the coding the client takes. The request path stays synchronous from
 * here on: every read is a positioned read of a file in the page cache.
 */
import { composedTag } from "./respond/body-tag.js";
import { composeChangesInto } from "./compose/compose-changes.js";
import { composeListInto } from "./compose/compose-list.js";
import { composeShowtimeInto } from "./compose/compose-page.js";
import { ApiError, requireReadMethod, unknownEndpoint } from "./respond/errors.js";
import type { PageBuffer, PagePool } from "./format/primitives/page-buffer.js";
import type { Snapshot } from "./format/read/snapshot.js";
import type { SnapshotSource } from "./format/read/snapshot-source.js";
import { bodyKeyOf, type BodyKey } from "./format/layout/body-index.js";
import type { CachedBody, ResponseCache } from "./respond/response-cache.js";
import { sendBody, type Conditions, type Outgoing } from "./respond/respond.js";
import { clipText } from "./respond/text.js";
import {
  decodeId,
  isStoredPageRequest,
  matchRoute,
  ONE_TABLES,
  parseChangesRequest,
  parseListRequest,
  parseTableQuery,
  type ListRequest,
} from "./endpoints/route.js";
import type { Embedded } from "./endpoints/parameters/query-values.js";

/** An unknown id echoed in a 404: whole up to the spec's 160, so the message stays within 300. */
const MAX_ID_ECHO = 160;

export interface ServeRequest {
  method: string;
  url: string;
  conditions: Conditions;
}

/** A stored body by its key (as latin1), from the cache or the snapshot. */
function storedBody(snapshot: Snapshot, cache: ResponseCache, key: string): CachedBody | undefined {
  const cached = cache.storedBody(key);
  if (cached) return cached;
  const address = snapshot.bodies.find(Buffer.from(key, "latin1"));
  return address && cache.keepStored(key, snapshot.bodies.read(address));
}

function sendStored(cache: ResponseCache, key: string, body: CachedBody, conditions: Conditions): Outgoing {
  return sendBody(body, conditions, "precomputed", (coding) => cache.encode(body, key, "stored", coding));
}

/** The stored body answering `bodyKey`, remembered for this URL, or undefined. */
function tryStored(
  snapshot: Snapshot,
  cache: ResponseCache,
  url: string,
  bodyKey: BodyKey,
): { key: string; body: CachedBody } | undefined {
  const key = bodyKeyOf(bodyKey).toString("latin1");
  const body = storedBody(snapshot, cache, key);
  if (!body) return undefined;
  cache.rememberUrl(url, key);
  return { key, body };
}

/**
 * Sends a composed body written into a buffer lent by `pages` (given back by `release` once the
 * response is written); the cache, if it keeps the body, keeps a copy of its own. `identity` names
 * the bytes within this snapshot: its tag.
 */
function sendComposed(
  snapshot: Snapshot,
  cache: ResponseCache,
  url: string,
  identity: string,
  write: (out: PageBuffer) => void,
  pages: PagePool,
  conditions: Conditions,
): Outgoing {
  const page = pages.acquire();
  try {
    write(page);
  } catch (error) {
    pages.release(page);
    throw error;
  }
  const body: CachedBody = { etag: composedTag(snapshot.manifest.snapshotId, identity), identity: page.lend() };
  const kept = cache.keepComposed(url, body);
  // Codings are made on the cache's copy when it kept one, so they are kept (and counted) with it.
  const outgoing = sendBody(kept ?? body, conditions, "composed", (coding) =>
    cache.encode(kept ?? body, url, "composed", coding),
  );
  // Sent from the lent buffer only when it is the body going out; a coding made from it, or a 304, frees it now.
  if (outgoing.body === body.identity) outgoing.release = () => pages.release(page);
  else pages.release(page);
  return outgoing;
}

/** A list page that was not stored: O(log n + limit) record reads, never a scan. */
function composeList(
  snapshot: Snapshot,
  cache: ResponseCache,
  url: string,
  list: ListRequest,
  pages: PagePool,
  conditions: Conditions,
): Outgoing {
  const { lists, manifest } = snapshot;
  const include = list.resource === "showtimes" ? list.query.include : undefined;
  // The page's identity in this snapshot: its endpoint and filters (binding), start, size and embeds.
  const identity = `${list.binding}|${JSON.stringify(list.after ?? null)}|${list.limit}|${include ?? ""}`;
  const write = (out: PageBuffer) => composeListInto(lists, list, manifest.freshness, out);
  return sendComposed(snapshot, cache, url, identity, write, pages, conditions);
}

/** `GET /v1/showtimes/{id}`: composed from its block (showtimes have no stored get-one). */
function composeShowtime(
  snapshot: Snapshot,
  cache: ResponseCache,
  url: string,
  include: Embedded[] | undefined,
  id: string,
  pages: PagePool,
  conditions: Conditions,
): Outgoing {
  const { lists, manifest } = snapshot;
  const record = lists.showtimes.findById(id);
  if (record === undefined) throw notFound("showtime", id);
  const write = (out: PageBuffer) => composeShowtimeInto(lists, record, include, manifest.freshness, out);
  return sendComposed(snapshot, cache, url, `one|${id}|${include ?? ""}`, write, pages, conditions);
}

function notFound(singular: string, id: string): ApiError {
  return new ApiError(404, "not_found", `No ${singular} has the id ${JSON.stringify(clipText(id, MAX_ID_ECHO))}.`);
}

/** Serves a request; composed pages are written into buffers `pages` lends. */
export function serve(request: ServeRequest, source: SnapshotSource, cache: ResponseCache, pages: PagePool): Outgoing {
  requireReadMethod(request.method);
  const { url, conditions } = request;
  const queryAt = url.indexOf("?");
  const route = matchRoute(queryAt === -1 ? url : url.slice(0, queryAt));
  if (!route) throw unknownEndpoint();
  const snapshot = source.current();
  cache.use(snapshot);
  // A URL seen before names the same stored body (its key depends on the request alone), or, on
  // the same snapshot, composes the same bytes: either skips parsing and reading.
  const memo = cache.memoOf(url);
  const remembered = memo === undefined ? undefined : storedBody(snapshot, cache, memo);
  if (remembered) return sendStored(cache, memo!, remembered, conditions);
  const composed = cache.composedPage(url);
  if (composed)
    return sendBody(composed, conditions, "composed", (coding) => cache.encode(composed, url, "composed", coding));

  const rawQuery = queryAt === -1 ? "" : url.slice(queryAt + 1);
  if (route.kind === "changes") {
    const request = parseChangesRequest(rawQuery);
    const identity = `changes|${request.binding}|${JSON.stringify(request.position ?? null)}`;
    const write = (out: PageBuffer) => composeChangesInto(snapshot, request, out);
    return sendComposed(snapshot, cache, url, identity, write, pages, conditions);
  }
  if (route.kind === "one") {
    if (route.resource === "showtimes") {
      // Parameters first (a 400 before a 404), then the id.
      const { include } = parseTableQuery<{ include?: Embedded[] }>(ONE_TABLES.showtimes, rawQuery).query;
      return composeShowtime(snapshot, cache, url, include, decodeId(route), pages, conditions);
    }
    parseTableQuery(ONE_TABLES[route.resource], rawQuery);
    const id = decodeId(route);
    const found = tryStored(snapshot, cache, url, { kind: "one", resource: route.resource, id });
    if (!found) throw notFound(route.resource === "cinemas" ? "cinema" : "film", id);
    return sendStored(cache, found.key, found.body, conditions);
  }
  const list = parseListRequest(route.resource, rawQuery);
  if (isStoredPageRequest(list, snapshot.manifest.defaultLimit)) {
    const found = tryStored(snapshot, cache, url, { kind: "page", resource: list.resource, after: list.after ?? null });
    if (found) return sendStored(cache, found.key, found.body, conditions);
  }
  return composeList(snapshot, cache, url, list, pages, conditions);
}
