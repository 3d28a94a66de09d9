/**
 * The parameters of `GET /v1/films` (spec §4.5; decision: discovery, name search), in the order they
 * are checked: paging, the showtime filters of /v1/showtimes (a film is listed when one of its
 * showtimes matches all of them), a country, and `q`.
 */
import type { FilmSelection } from "../../format/query/film-discovery.js";
import type { Near } from "../../format/query/cinema-selection.js";
import type { NameQuery } from "../../format/query/name-search.js";
import type { ShowtimeSelection } from "../../format/query/showtime-selection.js";
import { liftedFilter, nameQueryParameter } from "./discovery.js";
import { cursorParameter, DEFAULT_LIMIT, limitParameter, MAX_LIMIT, type Paging } from "./paging.js";
import type { Parameter } from "./parameter.js";
import { parseCountryCode } from "./query-values.js";
import type { TimeBound } from "./showtimes.js";

/** A film list request, parsed. */
export interface FilmQuery extends Paging {
  cinemaId?: string;
  startsAfter?: TimeBound;
  startsBefore?: TimeBound;
  date?: string;
  dayStartsAt?: number;
  attributeIds?: string[];
  near?: Near;
  countryCode?: string;
  q?: NameQuery;
}

type Row = Parameter<FilmSelection>;

const asFilms = (showtimes: ShowtimeSelection): FilmSelection => ({ showtimes });
const lifted = (key: string, descriptions: Record<string, string>) => liftedFilter(key, asFilms, "films", descriptions);

const MATCHING = "with a showtime that matches every showtime filter given (as `/v1/showtimes` reads it)";

export const FILM_PARAMETERS: readonly Row[] = [
  limitParameter(MAX_LIMIT, DEFAULT_LIMIT),
  lifted("cinemaId", {
    cinemaId: `Only films showing at this cinema, ${MATCHING}. An id that matches nothing gives an empty page.`,
  }),
  lifted("startsAfter", { startsAfter: `Only films ${MATCHING}: one starting strictly after this instant.` }),
  lifted("startsBefore", { startsBefore: `Only films ${MATCHING}: one starting strictly before this instant.` }),
  lifted("date", { date: `Only films ${MATCHING}: one on this calendar date at its cinema.` }),
  lifted("dayStartsAt", { dayStartsAt: "When `date` begins at the cinema (the cinema day), as for `/v1/showtimes`." }),
  lifted("attributeIds", { attributeIds: `Only films ${MATCHING}: one having all of these attributes.` }),
  lifted("near", {
    near: `Only films ${MATCHING}: one at a cinema within \`radiusKm\` of this point (\`LATITUDE,LONGITUDE\`).`,
    radiusKm: "The radius around `near` in km, as for `/v1/showtimes`: greater than 0 and at most 500, default 25.",
  }),
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
        component: "filmsCountryCode",
        parameter: {
          name: "countryCode",
          in: "query",
          description: `Only films ${MATCHING}: one at a cinema whose \`location.countryCode\` is this code.`,
          schema: { type: "string", pattern: "^[A-Z]{2}$" },
          example: "DE",
        },
      },
    ],
    client: "countryCode",
    select: (code: string, lists) => {
      const cinemas: number[] = [];
      for (let c = 0; c < lists.cinemas.length; c++) if (lists.cinemas.countryCodeOf(c) === code) cinemas.push(c);
      return asFilms({ cinemas });
    },
  },
  nameQueryParameter(
    "filmsQ",
    "Only films whose title matches: each word of `q` starts a word of the title, ignoring case and accents " +
      "(`koln` finds Köln, `strasse` Straße), in any script. 1 to 100 characters. Whole-title matches come " +
      "first, then titles starting with `q`, then the rest, each in the list's own order.",
    (name) => ({ name }),
  ),
  cursorParameter,
];
