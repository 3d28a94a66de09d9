/** A list request's parsed query as what the snapshot selects: ids turned into indexes, places into cinemas. */
import { type CinemaFilters, narrowCinemaFilters } from "../format/query/cinema-selection.js";
import { narrowSelection, type ShowtimeSelection } from "../format/query/showtime-selection.js";
import type { SnapshotLists } from "../format/read/snapshot.js";
import { CINEMA_PARAMETERS, type CinemaQuery } from "../endpoints/parameters/cinemas.js";
import { selectWith } from "../endpoints/parameters/parameter.js";
import { FILM_PARAMETERS, type FilmQuery } from "../endpoints/parameters/films.js";
import { type FilmSelection, isFilmDiscovery, narrowFilmSelection } from "../format/query/film-discovery.js";
import { SHOWTIME_PARAMETERS, type ShowtimeQuery } from "../endpoints/parameters/showtimes.js";

/** What a showtime query selects, every row's selection folded in; an unknown cinemaId or filmId selects nothing. */
export function showtimeSelectionOf(lists: SnapshotLists, query: Partial<ShowtimeQuery>): ShowtimeSelection {
  return selectWith(SHOWTIME_PARAMETERS, query, {}, lists, narrowSelection);
}

/** What a film query selects; undefined when it selects every film (the plain list, in id order). */
export function filmSelectionOf(lists: SnapshotLists, query: Partial<FilmQuery>): FilmSelection | undefined {
  const selection = selectWith<FilmSelection>(FILM_PARAMETERS, query, {}, lists, narrowFilmSelection);
  return isFilmDiscovery(selection) ? selection : undefined;
}

/** What a cinema query selects; undefined when it selects every cinema (the plain list, in id order). */
export function cinemaFiltersOf(lists: SnapshotLists, query: Partial<CinemaQuery>): CinemaFilters | undefined {
  const filters = selectWith<CinemaFilters>(CINEMA_PARAMETERS, query, {}, lists, narrowCinemaFilters);
  return Object.keys(filters).length > 0 ? filters : undefined;
}
