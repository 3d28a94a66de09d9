/** The parameters of `GET /v1/cinemas` (spec §4.3 and decision: query parameters), in the order they are checked. */
import type { CinemaFilters, Near } from "../../format/query/cinema-selection.js";
import { parseCountryCode } from "./query-values.js";
import { cursorParameter, DEFAULT_LIMIT, limitParameter, MAX_LIMIT, type Paging } from "./paging.js";
import type { Parameter } from "./parameter.js";
import { placeParameter } from "./place.js";

/** A cinema list request, parsed. */
export interface CinemaQuery extends Paging {
  near?: Near;
  countryCode?: string;
}

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
  cursorParameter,
];
