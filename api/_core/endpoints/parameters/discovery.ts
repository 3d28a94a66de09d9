/**
 * The rows discovery adds to the film and cinema lists (decision: discovery, name search): the
 * showtime filters of /v1/showtimes, taken as they are (parsed, bounded and bound alike) and
 * answering "which films (cinemas) have a showtime matching all of them"; `q`; and `chainId`.
 */
import type { ShowtimeSelection } from "../../format/query/showtime-selection.js";
import { MAX_ID_LENGTH, MAX_QUERY_LENGTH, parseNameQuery } from "./query-values.js";
import type { NameQuery } from "../../format/query/name-search.js";
import type { FilterRow, OpenApiParameter } from "./parameter.js";
import { SHOWTIME_PARAMETERS } from "./showtimes.js";
import { badParameter } from "../../respond/errors.js";
import { codePointLength } from "../../respond/text.js";
import { isFilter } from "./parameter.js";

/** A showtime filter's row of /v1/showtimes. */
export function showtimeFilter(key: string): FilterRow<ShowtimeSelection> {
  const row = SHOWTIME_PARAMETERS.find((r) => r.key === key);
  if (!row || !isFilter(row)) throw new Error(`/v1/showtimes has no filter ${key}`);
  return row;
}

/**
 * A showtime filter as a row of another list: what it parses and binds is the showtime row's, its
 * selection becomes a part of the list's (`wrap`), and its documentation is the list's own
 * (`describe`: a component name prefix and each name's description).
 */
export function liftedFilter<T>(
  key: string,
  wrap: (part: ShowtimeSelection) => T,
  prefix: string,
  descriptions: Record<string, string>,
): FilterRow<T> {
  const row = showtimeFilter(key);
  const openapi: OpenApiParameter[] = row.openapi.map(({ component, parameter }) => ({
    component: `${prefix}${component[0]!.toUpperCase()}${component.slice(1)}`,
    parameter: { ...parameter, description: descriptions[parameter.name as string] ?? parameter.description },
  }));
  return {
    ...row,
    openapi,
    select: (value: never, lists) =>
      wrap((row.select as (v: unknown, l: typeof lists) => ShowtimeSelection)(value, lists)),
  };
}

/** `q`: names matching words (decision: name search). */
export function nameQueryParameter<S>(
  component: string,
  description: string,
  select: (name: NameQuery) => S,
): FilterRow<S> {
  return {
    key: "q",
    names: ["q"],
    parse: (values) => {
      const value = values.get("q");
      return value === undefined ? undefined : parseNameQuery(value);
    },
    // As searched: two writings of the same words are the same pages.
    bind: (name: NameQuery) => name.key,
    openapi: [
      {
        component,
        parameter: {
          name: "q",
          in: "query",
          description,
          schema: { type: "string", minLength: 1, maxLength: MAX_QUERY_LENGTH },
          example: "dune",
        },
      },
    ],
    client: "q",
    select: (name: NameQuery) => select(name),
  };
}

/** `chainId`: cinemas of one chain (spec §2.3 chainId). */
export function chainIdParameter<S>(select: (chainId: string) => S): FilterRow<S> {
  return {
    key: "chainId",
    names: ["chainId"],
    parse(values) {
      const value = values.get("chainId");
      if (value !== undefined && codePointLength(value) > MAX_ID_LENGTH)
        throw badParameter("chainId", `must be at most ${MAX_ID_LENGTH} characters long`);
      return value;
    },
    bind: (chainId: string) => chainId,
    openapi: [
      {
        component: "chainId",
        parameter: {
          name: "chainId",
          in: "query",
          description: "Only cinemas of this chain (their `chainId`). An id that matches nothing gives an empty page.",
          schema: { type: "string", minLength: 1, maxLength: MAX_ID_LENGTH },
        },
      },
    ],
    client: "chainId",
    select: (chainId: string) => select(chainId),
  };
}
