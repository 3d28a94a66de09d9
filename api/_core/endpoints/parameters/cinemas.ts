/** The parameters of `GET /v1/cinemas` (spec §4.3 and decision: query parameters), in the order they are checked. */
import type { CinemaFilters, Near } from "../../format/query/cinema-selection.js";
import type { NameQuery } from "../../format/query/name-search.js";
import type { ShowtimeSelection } from "../../format/query/showtime-selection.js";
import { chainIdParameter, liftedFilter, nameQueryParameter } from "./discovery.js";
import type { TimeBound } from "./showtimes.js";
import { parseCountryCode } from "./query-values.js";
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
  q?: NameQuery;
}

const asCinemas = (showtimes: ShowtimeSelection): CinemaFilters => ({ showtimes });
const lifted = (key: string, descriptions: Record<string, string>) =>
  liftedFilter(key, asCinemas, "cinemas", descriptions);

const MATCHING = "with a showtime that matches every showtime filter given (as `/v1/showtimes` reads it)";

type Row = Parameter<CinemaFilters>;

export const CINEMA_PARAMETERS: readonly Row[] = [
  limitParameter(MAX_LIMIT, DEFAULT_LIMIT),
  placeParameter<CinemaFilters>((near) => ({ near })),
  {
    key: "countryCode",
    names: ["countryCode"],
    parse: (values) => {
      const value = values.get("countryCode");
      return value === undefined ? undefined : parseCountryCode(value);
    },
    bind: (code: string) => code,
    openapi: [
      {
        component: "countryCode",
        parameter: {
          name: "countryCode",
          in: "query",
          description:
            "Only cinemas whose `location.countryCode` is this ISO 3166-1 alpha-2 code (two upper-case letters).",
          schema: { type: "string", pattern: "^[A-Z]{2}$" },
          example: "DE",
        },
      },
    ],
    client: "countryCode",
    select: (code: string) => ({ countryCode: code }),
  },
  chainIdParameter<CinemaFilters>((chainId) => ({ chainId })),
  lifted("filmId", {
    filmId: `Only cinemas showing this film, ${MATCHING}. An id that matches nothing gives an empty page.`,
  }),
  lifted("startsAfter", { startsAfter: `Only cinemas ${MATCHING}: one starting strictly after this instant.` }),
  lifted("startsBefore", { startsBefore: `Only cinemas ${MATCHING}: one starting strictly before this instant.` }),
  lifted("date", { date: `Only cinemas ${MATCHING}: one on this calendar date at the cinema.` }),
  lifted("dayStartsAt", { dayStartsAt: "When `date` begins at the cinema (the cinema day), as for `/v1/showtimes`." }),
  lifted("attributeIds", { attributeIds: `Only cinemas ${MATCHING}: one having all of these attributes.` }),
  nameQueryParameter(
    "cinemasQ",
    "Only cinemas whose name or locality matches: each word of `q` starts a word of either, ignoring case and " +
      "accents, in any script. 1 to 100 characters. Cinemas whose whole name matches come first, then names " +
      "starting with `q`, then the rest, each in the list's own order.",
    (name) => ({ name }),
  ),
  cursorParameter,
];
