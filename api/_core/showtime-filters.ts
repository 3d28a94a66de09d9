/** A showtime list request's filters as the snapshot's selection: ids turned into indexes, places into cinemas. */
import { cinemasNear } from "./format/query/cinema-selection.js";
import type { SnapshotLists } from "./format/read/snapshot.js";
import type { ShowtimeSelection } from "./format/query/showtime-selection.js";
import { parseInclude, type Embedded } from "./query-values.js";
import type { ListRequest } from "./route.js";

/** The selection `list` asks for; an unknown cinemaId or filmId selects no cinema (an empty page). */
export function selectionOf(lists: SnapshotLists, list: ListRequest): ShowtimeSelection {
  const { cinemaId, filmId } = list.filters;
  const selection: ShowtimeSelection = {};
  if (list.startsBeforeKey !== undefined) selection.startsBeforeKey = list.startsBeforeKey;
  if (list.attributeIds) selection.sets = lists.setsHolding(list.attributeIds);
  if (filmId !== undefined) {
    const film = lists.films.indexOf(filmId);
    if (film === -1) return { cinemas: [] };
    selection.film = film;
  }
  const cinema = cinemaId === undefined ? undefined : lists.cinemas.indexOf(cinemaId);
  if (cinema === -1) return { cinemas: [] };
  if (list.near) {
    const near = cinemasNear(lists.cinemas, list.near);
    selection.cinemas = cinema === undefined ? near : near.filter((c) => c === cinema);
  } else if (cinema !== undefined) {
    selection.cinemas = [cinema];
  }
  return selection;
}

/** The include parameter of a get-one, parsed (undefined when absent). */
export function includeOf(params: Map<string, string>): Embedded[] | undefined {
  const include = params.get("include");
  return include === undefined ? undefined : parseInclude(include);
}
