/**
 * A list page the snapshot does not store, composed for a parsed request (endpoints/parse-request.ts) from its
 * lists.
 */
import type { ListRequest } from "../endpoints/parse-request.js";
import type { Freshness } from "../format/layout/manifest.js";
import type { PageBuffer } from "../format/primitives/page-buffer.js";
import { CinemaSelectionList, selectCinemas } from "../format/query/cinema-selection.js";
import { FilmDiscoveryList } from "../format/query/film-discovery.js";
import type { RecordList } from "../format/read/record-list.js";
import type { SnapshotLists } from "../format/read/snapshot.js";
import { composePageInto, composeSelectedInto } from "./compose-page.js";
import { cinemaFiltersOf, filmSelectionOf, showtimeSelectionOf } from "./showtime-filters.js";

/** The list a film, cinema or attribute request pages through: its selection, or the whole list. */
function recordsOf(lists: SnapshotLists, list: Exclude<ListRequest, { resource: "showtimes" }>): RecordList {
  if (list.resource === "cinemas") {
    const filters = cinemaFiltersOf(lists, list.query);
    if (filters) return new CinemaSelectionList(lists, selectCinemas(lists, filters), filters);
  }
  if (list.resource === "films") {
    const selection = filmSelectionOf(lists, list.query);
    if (selection) return new FilmDiscoveryList(lists, selection);
  }
  return lists.list(list.resource);
}

/**
 * Writes the page `list` asks for into `out`: O(log n + limit) record reads for showtimes; a
 * selection of films or cinemas is made whole, from resident tables and summaries, then paged.
 * `listing`: a page of showtimes as find_showtimes lists it (showtime-embeds.ts).
 */
export function composeListInto(
  lists: SnapshotLists,
  list: ListRequest,
  fallback: Freshness,
  out: PageBuffer,
  listing = false,
): void {
  const page = { after: list.after, limit: list.limit, binding: list.binding };
  if (list.resource === "showtimes") {
    const selection = showtimeSelectionOf(lists, list.query);
    composeSelectedInto(lists, selection, { ...page, include: list.query.include }, fallback, out, listing);
    return;
  }
  composePageInto(lists, recordsOf(lists, list), page, fallback, out);
}
