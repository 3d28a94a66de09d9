/**
 * The parameters of `GET /v1/films` (spec §4.5; decision: discovery, name search), in the order they
 * are checked: paging, the showtime filters of /v1/showtimes (a film is listed when one of its
 * showtimes matches all of them), a country, and `q`.
 */
import type { FilmSelection } from "../../format/query/film-discovery.js";
import type { Near } from "../../format/query/cinema-selection.js";
import type { NameQuery } from "../../format/query/name-search.js";
import type { ShowtimeSelection } from "../../format/query/showtime-selection.js";
import { countryCodeParameter, lifterFor, MATCHING, nameQueryParameter, showingFilters } from "./discovery.js";
import { cursorParameter, DEFAULT_LIMIT, limitParameter, MAX_LIMIT, type Paging } from "./paging.js";
import type { Parameter } from "./parameter.js";
import type { TimeBound } from "./showtimes.js";

/** A film list request, parsed. */
export interface FilmQuery extends Paging {
  cinemaId?: string;
  startsAfter?: TimeBound;
  startsBefore?: TimeBound;
  date?: string;
  dayStartsAt?: number;
  attributeIds?: string[];
  anyAttributeIds?: string[];
  near?: Near;
  countryCode?: string;
  q?: NameQuery;
}

type Row = Parameter<FilmSelection>;

const asFilms = (showtimes: ShowtimeSelection): FilmSelection => ({ showtimes });
const lift = lifterFor("films", asFilms);

export const FILM_PARAMETERS: readonly Row[] = [
  limitParameter(MAX_LIMIT, DEFAULT_LIMIT),
  lift("cinemaId", {
    cinemaId: `Only films showing at this cinema, ${MATCHING}. An id that matches nothing gives an empty page.`,
  }),
  ...showingFilters("films", asFilms),
  lift("near", {
    near: `Only films ${MATCHING}: one at a cinema within \`radiusKm\` of this point (\`LATITUDE,LONGITUDE\`).`,
    radiusKm: "The radius around `near` in km, as for `/v1/showtimes`: greater than 0 and at most 500, default 25.",
  }),
  countryCodeParameter(
    "filmsCountryCode",
    `Only films ${MATCHING}: one at a cinema whose \`location.countryCode\` is this code.`,
    (code, lists) => {
      const cinemas: number[] = [];
      for (let c = 0; c < lists.cinemas.length; c++) if (lists.cinemas.countryCodeOf(c) === code) cinemas.push(c);
      return asFilms({ cinemas });
    },
  ),
  nameQueryParameter(
    "filmsQ",
    "Only films whose title matches: each word of `q` starts a word of the title, ignoring case and accents " +
      "(`koln` finds Köln, `strasse` Straße), in any script. 1 to 100 characters once whitespace at either end " +
      "is trimmed, with at least one letter or digit. Whole-title matches come " +
      "first, then titles starting with `q`, then the rest, each in the list's own order.",
    (name) => ({ name }),
  ),
  cursorParameter,
];
