/** The parameters of `GET /v1/cinemas` (spec §4.3 and decision: query parameters), in the order they are checked. */
import type { CinemaFilters, Near } from "../../format/query/cinema-selection.js";
import type { NameQuery } from "../../format/query/name-search.js";
import type { ShowtimeSelection } from "../../format/query/showtime-selection.js";
import {
  chainIdParameter,
  countryCodeParameter,
  lifterFor,
  MATCHING,
  nameQueryParameter,
  showingFilters,
} from "./discovery.js";
import type { TimeBound } from "./showtimes.js";
import { cursorParameter, DEFAULT_LIMIT, limitParameter, MAX_LIMIT, type Paging } from "./paging.js";
import type { Parameter } from "./parameter.js";
import { placeParameter } from "./place.js";

/** A cinema list request, parsed. */
export interface CinemaQuery extends Paging {
  near?: Near;
  countryCode?: string;
  chainId?: string;
  filmId?: string;
  startsAfter?: TimeBound;
  startsBefore?: TimeBound;
  date?: string;
  dayStartsAt?: number;
  attributeIds?: string[];
  anyAttributeIds?: string[];
  q?: NameQuery;
}

const asCinemas = (showtimes: ShowtimeSelection): CinemaFilters => ({ showtimes });
const lift = lifterFor("cinemas", asCinemas);

type Row = Parameter<CinemaFilters>;

export const CINEMA_PARAMETERS: readonly Row[] = [
  limitParameter(MAX_LIMIT, DEFAULT_LIMIT),
  placeParameter<CinemaFilters>((near) => ({ near })),
  countryCodeParameter<CinemaFilters>(
    "countryCode",
    "Only cinemas whose `location.countryCode` is this ISO 3166-1 alpha-2 code (two upper-case letters).",
    (code) => ({ countryCode: code }),
  ),
  chainIdParameter<CinemaFilters>((chainId) => ({ chainId })),
  lift("filmId", {
    filmId: `Only cinemas showing this film, ${MATCHING}. An id that matches nothing gives an empty page.`,
  }),
  ...showingFilters("cinemas", asCinemas),
  nameQueryParameter(
    "cinemasQ",
    "Only cinemas whose name or locality matches: each word of `q` starts a word of either, ignoring case and " +
      "accents, in any script. 1 to 100 characters once whitespace at either end is trimmed, with at least one " +
      "letter or digit. Cinemas whose whole name matches come first, then names " +
      "starting with `q`, then the rest, each in the list's own order.",
    (name) => ({ name }),
  ),
  cursorParameter,
];
