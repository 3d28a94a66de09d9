/**
 * The list endpoints (spec §4.2, §4.3, §4.5, §4.7): a request is parsed by its list's parameter
 * table, answered with a stored page when it asks exactly what one answers (decision: stored and
 * composed pages), else composed from the snapshot's lists.
 */
import { composeListInto } from "../compose/compose-list.js";
import type { ListResource } from "../format/layout/manifest.js";
import type { PageBuffer } from "../format/primitives/page-buffer.js";
import type { Outgoing } from "../respond/respond.js";
import { isStoredPageRequest, type ListRequest, parseListRequest } from "./parse-request.js";
import type { Endpoint, Serving } from "./serving.js";

/** A list page that was not stored: O(log n + limit) record reads, never a scan. */
function composeList(serving: Serving, list: ListRequest): Outgoing {
  const { lists, manifest } = serving.snapshot;
  const include = list.resource === "showtimes" ? list.query.include : undefined;
  // The page's identity in this snapshot: its endpoint and filters (binding), start, size and embeds.
  const identity = `${list.binding}|${JSON.stringify(list.after ?? null)}|${list.limit}|${include ?? ""}`;
  return serving.composed(identity, (out: PageBuffer) => composeListInto(lists, list, manifest.freshness, out));
}

/** The endpoint listing `resource`. */
export function listEndpoint(resource: ListResource): Endpoint {
  return {
    answer(_, rawQuery, serving) {
      const list = parseListRequest(resource, rawQuery);
      if (isStoredPageRequest(list, serving.snapshot.manifest.defaultLimit)) {
        const stored = serving.stored({ kind: "page", resource, after: list.after ?? null });
        if (stored) return stored;
      }
      return composeList(serving, list);
    },
  };
}
