/**
 * A page of `GET /v1/changes` (decision: changes feed), byte for byte the same for the same
 * snapshot, token, cursor and limit: `{"data": [change, …], "pagination": {…}, "syncToken": …,
 * "dropBefore": …, "freshness": {…}}`. The token comes on the last page only; `dropBefore` says
 * before which instant a mirror drops showtimes (they are left out, never deleted one by one).
 */
import { encodeCursorEscaped } from "../tokens/cursor.js";
import { ApiError } from "../respond/errors.js";
import { ChangesFeed, type FeedPosition } from "../format/query/changes.js";
import { FreshnessFold } from "../format/read/freshness.js";
import type { PageBuffer } from "../format/primitives/page-buffer.js";
import type { Snapshot } from "../format/read/snapshot.js";
import type { ChangesRequest } from "../endpoints/parse-request.js";
import { encodeSyncToken } from "../tokens/sync-token.js";

/** A page's changes stop before this many bytes: every response stays under Vercel's 4.5 MB limit. */
export const MAX_FEED_PAGE_BYTES = 4_000_000;

/** The 410 that sends a client back to a full copy, or to the start of its catch-up. */
function expired(reason: string, message: string, restart: string): ApiError {
  return new ApiError(410, "not_found", message, { reason, restart });
}

/** Checks that the snapshot's history can answer the request; throws the 410 that says what to do. */
function checkAnswerable(snapshot: Snapshot, request: ChangesRequest): void {
  const { meta } = snapshot.history;
  const since = request.query.since;
  // A market's feed is at its own base address (decision: markets): the restart names it.
  const market = snapshot.manifest.market;
  const feed = market ? `/${market.id}/v1/changes` : "/v1/changes";
  if (since && (since.token.history !== meta.id || !snapshot.history.answers(since.token.generation)))
    throw expired(
      "sync_token_expired",
      "This sync token is older than the history the service keeps, or of a history that began afresh: " +
        `start a full copy at ${feed}.`,
      feed,
    );
  if (request.position && request.position.snapshotId !== snapshot.manifest.snapshotId) {
    const restart = since ? `${feed}?since=${since.text}` : feed;
    throw expired(
      "sync_page_expired",
      "The data changed while paging: start this sync again from its first page.",
      restart,
    );
  }
}

export function composeChangesInto(snapshot: Snapshot, request: ChangesRequest, out: PageBuffer): void {
  checkAnswerable(snapshot, request);
  const { lists, manifest, history } = snapshot;
  const feed = new ChangesFeed(lists, history, request.query.since?.token.generation);
  const fold = new FreshnessFold(lists.dictionaries.observed, lists.dictionaries.updated);
  const from: FeedPosition = request.position ?? { phase: 0, index: 0 };
  out.reset();
  out.text('{"data":[');
  const page = feed.writePage(from, request.limit, MAX_FEED_PAGE_BYTES, out, fold);
  const next = page.next
    ? encodeCursorEscaped(request.binding, [`${manifest.snapshotId}.${page.next.phase}`], String(page.next.index))
    : null;
  const token =
    next === null
      ? encodeSyncToken({ history: history.meta.id, generation: history.meta.generation, market: manifest.market?.id })
      : null;
  out.text(
    `],"pagination":${JSON.stringify({ nextCursor: next, hasMore: next !== null })},` +
      `"syncToken":${JSON.stringify(token)},"dropBefore":${JSON.stringify(manifest.dropBefore ?? null)},` +
      `"freshness":${JSON.stringify(fold.result(manifest.freshness))}}`,
  );
}
