/** A list page the snapshot does not store, composed for a parsed request (route.ts) from its lists. */
import { composePageInto, composeSelectedInto } from "./compose-page.js";
import { CinemaSelectionList, selectCinemas } from "../format/query/cinema-selection.js";
import type { Freshness } from "../format/layout/manifest.js";
import type { PageBuffer } from "../format/primitives/page-buffer.js";
import type { SnapshotLists } from "../format/read/snapshot.js";
import type { ListRequest } from "../endpoints/parse-request.js";
import { cinemaFiltersOf, showtimeSelectionOf } from "./showtime-filters.js";

/** Writes the page `list` asks for into `out`: O(log n + limit) record reads, never a scan. */
export function composeListInto(lists: SnapshotLists, list: ListRequest, fallback: Freshness, out: PageBuffer): void {
  const page = { after: list.after, limit: list.limit, binding: list.binding };
  if (list.resource === "showtimes") {
    const selection = showtimeSelectionOf(lists, list.query);
    composeSelectedInto(lists, selection, { ...page, include: list.query.include }, fallback, out);
    return;
  }
  const filters = list.resource === "cinemas" ? cinemaFiltersOf(lists, list.query) : undefined;
  const records = filters
    ? new CinemaSelectionList(lists.cinemas, selectCinemas(lists.cinemas, filters), filters.near !== undefined)
    : lists.list(list.resource);
  composePageInto(lists, records, page, fallback, out);
}
