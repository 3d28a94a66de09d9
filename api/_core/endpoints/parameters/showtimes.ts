/**
 * The parameters of `GET /v1/showtimes` (spec §4.2 and decision: query parameters), in the order
 * they are checked. Each row says how it parses, binds cursors, is documented, is carried by the
 * typed client and what it selects.
 */
import { checkDateTime } from "../../format/primitives/date-time.js";
import { badParameter } from "../../respond/errors.js";
import { cinemasNear, type Near } from "../../format/query/cinema-selection.js";
import type { ShowtimeSelection } from "../../format/query/showtime-selection.js";
import { type Embedded, MAX_ID_LENGTH, parseInclude } from "./query-values.js";
import { anyAttributeIdsParameter, attributeIdsParameter } from "./attribute-filters.js";
import { clipText, codePointLength } from "../../respond/text.js";
import { cursorParameter, DEFAULT_LIMIT, limitParameter, MAX_LIMIT, type Paging } from "./paging.js";
import type { FilterRow, OpenApiParameter, Parameter, PlainRow, Values } from "./parameter.js";
import { dateParameter, dayStartsAtParameter } from "./local-day.js";
import { placeParameter } from "./place.js";

/** A date-time bound as sent (what startsAfter binds) and as an instant key (what the search compares). */
export interface TimeBound {
  text: string;
  key: string;
}

/** A showtime list request, parsed: one field per row below. */
export interface ShowtimeQuery extends Paging {
  cinemaId?: string;
  filmId?: string;
  startsAfter?: TimeBound;
  startsBefore?: TimeBound;
  date?: string;
  /** Minutes after midnight. */
  dayStartsAt?: number;
  attributeIds?: string[];
  anyAttributeIds?: string[];
  near?: Near;
  include?: Embedded[];
}

type Row = Parameter<ShowtimeSelection>;
type Filter = FilterRow<ShowtimeSelection>;

const ID_SCHEMA = { type: "string", minLength: 1, maxLength: MAX_ID_LENGTH };

function idFilter(name: "cinemaId" | "filmId", description: string, select: Filter["select"]): Filter {
  return {
    key: name,
    names: [name],
    parse(values) {
      const value = values.get(name);
      if (value !== undefined && codePointLength(value) > MAX_ID_LENGTH)
        throw badParameter(name, `must be at most ${MAX_ID_LENGTH} characters long`);
      return value;
    },
    bind: (id: string) => id,
    openapi: [{ component: `${name}Filter`, parameter: { name, in: "query", description, schema: ID_SCHEMA } }],
    client: name,
    select,
  };
}

function parseTimeBound(values: Values, name: "startsAfter" | "startsBefore"): TimeBound | undefined {
  const value = values.get(name);
  if (value === undefined) return undefined;
  const check = checkDateTime(value);
  if (!check.ok) {
    // An unencoded "+" of an offset arrives as a space (form decoding): say so (decision: pointed errors).
    const hint = /\d \d{2}:\d{2}$/.test(value)
      ? '; a "+" in a query is read as a space: send the offset as %2B01:00'
      : "";
    throw badParameter(
      name,
      `is not a valid date-time (${check.reason}): received ${JSON.stringify(clipText(value, 40))}${hint}`,
    );
  }
  return { text: value, key: check.instantKey };
}

function timeBound(
  name: "startsAfter" | "startsBefore",
  bind: (bound: TimeBound) => string,
  openapi: OpenApiParameter,
  select: (bound: TimeBound) => ShowtimeSelection,
): Filter {
  return {
    key: name,
    names: [name],
    parse: (values) => parseTimeBound(values, name),
    bind,
    openapi: [openapi],
    client: name,
    select,
  };
}

/** The include parameter: embeds each showtime's film and/or cinema (list and get-one alike). */
export const includeParameter: PlainRow = {
  key: "include",
  names: ["include"],
  parse: (values) => {
    const value = values.get("include");
    return value === undefined ? undefined : parseInclude(value);
  },
  bind: null,
  openapi: [
    {
      component: "include",
      parameter: {
        name: "include",
        in: "query",
        description:
          "Embeds each showtime's `film` and/or `cinema`: a comma-separated subset of `film,cinema`, each " +
          "at most once. Each embedded record is the full record its get-one returns; the freshness covers " +
          "them too.",
        schema: { type: "string", enum: ["film", "cinema", "film,cinema", "cinema,film"] },
      },
    },
  ],
  client: "include",
  select: null,
};

export const SHOWTIME_PARAMETERS: readonly Row[] = [
  idFilter(
    "cinemaId",
    "Only showtimes at this cinema. An id that matches nothing gives an empty page, not a 404.",
    (id: string, lists) => ({ cinemas: [lists.cinemas.indexOf(id)] }),
  ),
  idFilter(
    "filmId",
    "Only showtimes of this film. An id that matches nothing gives an empty page, not a 404.",
    (id: string, lists) => ({ film: lists.films.indexOf(id) }),
  ),
  limitParameter(MAX_LIMIT, DEFAULT_LIMIT),
  timeBound(
    "startsAfter",
    // Bound as sent: the first cursors did so, and every cursor since must keep its binding.
    (bound) => bound.text,
    {
      component: "startsAfter",
      parameter: {
        name: "startsAfter",
        in: "query",
        description:
          "Only showtimes starting strictly after this instant (`startsAt > startsAfter`, exclusive, compared as " +
          "instants so offsets are applied). The spec's date-time form: seconds optional, zone required.",
        schema: { $ref: "#/components/schemas/DateTime" },
        example: "2026-11-24T18:00Z",
      },
    },
    (bound) => ({ startsAfterKey: bound.key }),
  ),
  timeBound(
    "startsBefore",
    // As an instant: equal instants written differently bind the same.
    (bound) => bound.key,
    {
      component: "startsBefore",
      parameter: {
        name: "startsBefore",
        in: "query",
        description:
          "Only showtimes starting strictly before this instant (`startsAt < startsBefore`, exclusive, compared as " +
          "instants). With `startsAfter` it makes a window; a window nothing can fall in is a 200 with an empty page.",
        schema: { $ref: "#/components/schemas/DateTime" },
        example: "2026-11-24T23:00Z",
      },
    },
    (bound) => ({ startsBeforeKey: bound.key }),
  ),
  dateParameter,
  dayStartsAtParameter,
  attributeIdsParameter,
  anyAttributeIdsParameter,
  placeParameter<ShowtimeSelection>((near, lists) => {
    const matches = cinemasNear(lists.cinemas, near);
    return { cinemas: matches.map((m) => m.index), distances: new Map(matches.map((m) => [m.index, m.distanceKm])) };
  }),
  includeParameter,
  cursorParameter,
];
