/**
 * The changes feed as a mirror walks it (decision: changes feed), driven in process through the
 * request core (createHandler: key check, parsing, composing, the response bytes a client gets
 * without gzip), never over HTTP: the bench counts requests, changes and bytes here, not time.
 */
import { staticAccess } from "../../api/_core/gate/access.js";
import { createHandler, type Handler } from "../../api/_core/handle-request.js";
import { SnapshotSource } from "../../api/_core/format/read/snapshot-source.js";
import { benchAccessText, BENCH_KEY } from "./access.js";

/** What one sync (a full copy, or a catch-up from a token) took. */
export interface FeedWalk {
  /** Every page's URL, in order: the first, then one per nextCursor. */
  pageUrls: string[];
  changes: number;
  /** The largest response body, uncompressed. */
  largestBytes: number;
  /** The syncToken of the last page. */
  token: string;
}

/** GET `url` and the identity body of a 200; anything else is a failure of the bench. */
export type FeedGet = (url: string) => Promise<Buffer>;

/** A FeedGet over the core serving `snapshotDir`, with the bench key. */
export function feedInProcess(snapshotDir: string): FeedGet {
  const handle: Handler = createHandler({
    snapshots: new SnapshotSource(snapshotDir),
    access: staticAccess(benchAccessText()),
  });
  return async (url) => {
    const response = await handle({ method: "GET", url, headers: { authorization: `Bearer ${BENCH_KEY}` } });
    // A copy: the body may be a pooled buffer the core takes back on release.
    const body = Buffer.from(response.body);
    response.release?.();
    if (response.status !== 200)
      throw new Error(`${url} answered ${response.status}: ${body.toString().slice(0, 300)}`);
    return body;
  };
}

/** The query of a sync: a full copy without `since`, a catch-up with it. */
export function feedQuery(limit: number, since?: string): string {
  return since === undefined ? `/v1/changes?limit=${limit}` : `/v1/changes?since=${since}&limit=${limit}`;
}

/** Walks one sync to its last page, following nextCursor. */
export async function walkFeed(get: FeedGet, first: string): Promise<FeedWalk> {
  const walk: FeedWalk = { pageUrls: [], changes: 0, largestBytes: 0, token: "" };
  let url: string | undefined = first;
  while (url !== undefined) {
    const body = await get(url);
    const page = JSON.parse(body.toString("utf8")) as {
      data: unknown[];
      pagination: { nextCursor: string | null };
      syncToken: string | null;
    };
    walk.pageUrls.push(url);
    walk.changes += page.data.length;
    walk.largestBytes = Math.max(walk.largestBytes, body.length);
    const cursor = page.pagination.nextCursor;
    if (cursor === null) walk.token = page.syncToken ?? "";
    url = cursor === null ? undefined : `${first}&cursor=${cursor}`;
  }
  if (walk.token === "") throw new Error(`${first}: the last page has no syncToken`);
  return walk;
}
