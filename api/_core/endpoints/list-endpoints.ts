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
import type { ParameterTable } from "./parameters/parameter.js";
import {
  decodeId,
  isStoredPageRequest,
  LIST_TABLES,
  type ListRequest,
  type ListScope,
  parseListRequestWith,
} from "./parse-request.js";
import type { Endpoint, Serving } from "./serving.js";

/** How a list endpoint answers: what it lists, by which table, and for a record's own list its path's ids. */
export interface ListSpec {
  /** The kind of record listed: its sort key, its stored pages (a record's own list has none). */
  resource: ListResource;
  /** Its parameter table; the resource's own by default. */
  table?: ParameterTable;
  /** A record's own list: the endpoint's name and its path ids' parameter names, in path order (bound into cursors). */
  scope?: { endpoint: string; ids: readonly string[] };
  /** The records a page is cut from (a sub-resource's selection); the resource's list or selection by default. */
  records?: (lists: SnapshotLists, request: ListRequest, ids: readonly string[]) => RecordList;
}

/** A list page that was not stored: O(log n + limit) record reads, never a scan. */
function composeList(serving: Serving, list: ListRequest, records?: (lists: SnapshotLists) => RecordList): Outgoing {
  const { lists, manifest } = serving.snapshot;
  const include = list.resource === "showtimes" ? list.query.include : undefined;
  // The page's identity in this snapshot: its endpoint, ids and filters (binding), start, size and embeds.
  const identity = `${list.binding}|${JSON.stringify(list.after ?? null)}|${list.limit}|${include ?? ""}`;
  const page = { after: list.after, limit: list.limit, binding: list.binding };
  return serving.composed(identity, (out) =>
    records
      ? composePageInto(lists, records(lists), page, manifest.freshness, out)
      : composeListInto(lists, list, manifest.freshness, out),
  );
}

/** The endpoint of a list: `resource`'s own, or one `spec` describes. */
export function listEndpoint(spec: ListResource | ListSpec): Endpoint {
  const { resource, scope, records, ...rest }: ListSpec = typeof spec === "string" ? { resource: spec } : spec;
  const table = rest.table ?? LIST_TABLES[resource];
  return {
    answer(rawIds, rawQuery, serving) {
      const ids = (scope?.ids ?? []).map((name, i) => decodeId(name, rawIds[i]!));
      const listScope: ListScope | undefined = scope && {
        endpoint: scope.endpoint,
        ids: scope.ids.map((name, i) => [name, ids[i]!] as const),
      };
      const list = parseListRequestWith(table, resource, rawQuery, listScope);
      if (!scope && isStoredPageRequest(list, serving.snapshot.manifest.defaultLimit)) {
        const stored = serving.stored({ kind: "page", resource, after: list.after ?? null });
        if (stored) return stored;
      }
      return composeList(serving, list, records && ((lists) => records(lists, list, ids)));
    },
  };
}
