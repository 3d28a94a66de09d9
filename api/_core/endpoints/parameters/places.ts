/** The parameters of `GET /v1/places` (decision: places), in the order they are checked. */
import type { NameQuery } from "../../format/query/name-search.js";
import type { PlaceQuery } from "../../format/query/place-search.js";
import { badParameter } from "../../respond/errors.js";
import { countryCodeParameter, nameQueryParameter } from "./discovery.js";
import { cursorParameter, DEFAULT_LIMIT, limitParameter, MAX_LIMIT, type Paging } from "./paging.js";
import type { FilterRow, Parameter } from "./parameter.js";

/** A place search, parsed. */
export interface PlaceSearchQuery extends Paging {
  q: NameQuery;
  countryCode?: string;
}

type Row = Parameter<Partial<PlaceQuery>>;

const named = nameQueryParameter<Partial<PlaceQuery>>(
  "placesQ",
  "Required. Places whose name or region matches: each word of `q` starts a word of either, ignoring case " +
    "and accents, in any script (`london`, `saint etienne`, `springfield illinois`; a postcode district such as " +
    "`WC2H` or `10785`). 1 to 100 characters once whitespace at either end is trimmed, with at least one letter " +
    "or digit. Places whose whole name matches come first, then names starting with `q`, then the rest; each " +
    "group by how many cinemas lie within 25 km, most first.",
  (q) => ({ q }),
);

/** `q`, which a place search cannot do without. */
const placeName: FilterRow<Partial<PlaceQuery>> = {
  ...named,
  parse(values) {
    const value = named.parse(values);
    if (value === undefined) throw badParameter("q", "is required: the words of a place's name, such as London");
    return value;
  },
  openapi: named.openapi.map(({ component, parameter }) => ({
    component,
    parameter: { ...parameter, required: true, example: "london" },
  })),
};

export const PLACE_PARAMETERS: readonly Row[] = [
  limitParameter(MAX_LIMIT, DEFAULT_LIMIT),
  placeName,
  countryCodeParameter<Partial<PlaceQuery>>(
    "placesCountryCode",
    "Only places in the country with this ISO 3166-1 alpha-2 code (two upper-case letters).",
    (countryCode) => ({ countryCode }),
  ),
  cursorParameter,
];
