/**
 * The list endpoints (spec §4.2, §4.3, §4.5, §4.7), and the lists a record has (a sub-resource such
 * as `/v1/films/{filmId}/cinemas`): a request is parsed by its list's parameter table, answered with
 * a stored page when it asks exactly what one answers (decision: stored and composed pages), else
 * composed from the snapshot's lists.
 */
import { composeListInto } from "../compose/compose-list.js";
import { composePageInto } from "../compose/compose-page.js";
import type { ListResource } from "../format/layout/manifest.js";
import type { RecordList } from "../format/read/record-list.js";
import type { SnapshotLists } from "../format/read/snapshot.js";
import type { Outgoing } from "../respond/respond.js";
import { decodePathIds, requireRecords, type RouteEndpoint } from "./path-ids.js";
import { isStoredPageRequest, type ListRequest, type ListScope, parseListRequestWith } from "./parse-request.js";
import type { Serving } from "./serving.js";
import { checkKnownWith } from "./parameters/parameter.js";

/**
 * How a list endpoint answers: what it lists and, for a record's own list, the records it is cut
 * from. Its parameters are its route's table. Its scope is its route's: the path's ids (routes.ts), bound into its
 * cursors and its pages' entity tags, each a 404 when it names no record; a scoped list has no
 * stored pages.
 */
export interface ListSpec {
  /** The kind of record listed: its sort key, its stored pages (a record's own list has none). */
  resource: ListResource;
  /** The records a page is cut from (a sub-resource's selection, by the path's ids in path order). */
  records?: (lists: SnapshotLists, request: ListRequest, ids: readonly string[]) => RecordList;
}

/** A list page that was not stored: O(log n + limit) record reads, never a scan. */
function composeList(serving: Serving, list: ListRequest, records?: (lists: SnapshotLists) => RecordList): Outgoing {
  const { lists, manifest } = serving.snapshot;
  const include = list.resource === "showtimes" ? list.query.include : undefined;
  const { listing } = serving;
  // The page's identity in this snapshot: its endpoint, ids and filters (binding), start, size, embeds and shape.
  const identity =
    `${list.binding}|${JSON.stringify(list.after ?? null)}|${list.limit}|${include ?? ""}` +
    (listing ? "|listing" : "");
  const page = { after: list.after, limit: list.limit, binding: list.binding };
  return serving.composed(identity, (out) => {
    // Only find_showtimes asks for a listing, and only of /v1/showtimes.
    if (listing && (records || list.resource !== "showtimes")) throw new Error("a listing is of /v1/showtimes");
    if (records) composePageInto(lists, records(lists), page, manifest.freshness, out);
    else composeListInto(lists, list, manifest.freshness, out, listing);
  });
}

/** The endpoint of a list on its route: `resource`'s own, or one `spec` describes. */
export function listEndpoint(spec: ListResource | ListSpec): RouteEndpoint {
  const { resource, records }: ListSpec = typeof spec === "string" ? { resource: spec } : spec;
  return (route) => {
    const { table } = route;
    const scoped = route.ids.length > 0;
    return {
      answer(rawIds, rawQuery, serving) {
        const ids = decodePathIds(route.ids, rawIds);
        const scope: ListScope | undefined = scoped
          ? { endpoint: route.name, ids: route.ids.map((id, i) => [id.parameter, ids[i]!] as const) }
          : undefined;
        // A market's snapshot binds its cursors to the market (decision: markets).
        const market = serving.snapshot.manifest.market?.id;
        const list = parseListRequestWith(table, resource, rawQuery, scope, market);
        // Ids of a closed catalogue are checked on a first page; a cursor's query was checked when
        // its first page was asked, and it binds that query (decision: known attribute ids).
        if (list.after === undefined) checkKnownWith(table, list.query, () => serving.snapshot.lists);
        // Parameters first (a 400 before a 404), as on a get-one.
        if (scoped) requireRecords(() => serving.snapshot.lists, route.ids, ids);
        else if (isStoredPageRequest(list, serving.snapshot.manifest.defaultLimit)) {
          const stored = serving.stored({ kind: "page", resource, after: list.after ?? null });
          if (stored) return stored;
        }
        return composeList(serving, list, records && ((lists) => records(lists, list, ids)));
      },
    };
  };
}
