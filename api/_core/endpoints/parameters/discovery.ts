/**
 * The rows discovery adds to the film and cinema lists (decision: discovery, name search): the
 * showtime filters of /v1/showtimes, taken as they are (parsed, bounded and bound alike) and
 * answering "which films (cinemas) have a showtime matching all of them"; `q`; and `chainId`.
 */
import type { ShowtimeSelection } from "../../format/query/showtime-selection.js";
import type { SnapshotLists } from "../../format/read/snapshot.js";
import { MAX_ID_LENGTH, MAX_QUERY_LENGTH, parseCountryCode, parseNameQuery } from "./query-values.js";
import type { NameQuery } from "../../format/query/name-search.js";
import type { FilterRow, OpenApiParameter } from "./parameter.js";
import { SHOWTIME_PARAMETERS } from "./showtimes.js";
import { badParameter } from "../../respond/errors.js";
import { codePointLength } from "../../respond/text.js";
import { isFilter } from "./parameter.js";
import { COUNTRY_CODE_PATTERN } from "./value-patterns.js";

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

/** How a film's or cinema's showtime filter reads: by its showtimes. */
export const MATCHING = "with a showtime that matches every showtime filter given (as `/v1/showtimes` reads it)";

/** A list's way of lifting showtime filters: `lift(key, descriptions)` under its component prefix. */
export function lifterFor<T>(prefix: "films" | "cinemas", wrap: (part: ShowtimeSelection) => T) {
  return (key: string, descriptions: Record<string, string>) => liftedFilter(key, wrap, prefix, descriptions);
}

/** The time and attribute filters of /v1/showtimes as rows of a film or cinema list, in /v1/showtimes' order. */
export function showingFilters<T>(noun: "films" | "cinemas", wrap: (part: ShowtimeSelection) => T): FilterRow<T>[] {
  const lift = lifterFor(noun, wrap);
  const at = noun === "films" ? "its cinema" : "the cinema";
  return [
    lift("startsAfter", { startsAfter: `Only ${noun} ${MATCHING}: one starting strictly after this instant.` }),
    lift("startsBefore", { startsBefore: `Only ${noun} ${MATCHING}: one starting strictly before this instant.` }),
    lift("date", { date: `Only ${noun} ${MATCHING}: one on this calendar date at ${at}.` }),
    lift("dayStartsAt", { dayStartsAt: "When `date` begins at the cinema (the cinema day), as for `/v1/showtimes`." }),
    lift("attributeIds", { attributeIds: `Only ${noun} ${MATCHING}: one having all of these attributes.` }),
    lift("anyAttributeIds", {
      anyAttributeIds: `Only ${noun} ${MATCHING}: one having at least one of these attributes.`,
    }),
  ];
}

/** `countryCode`: two upper-case letters, as cinemas' `location.countryCode`; what it selects is the list's. */
export function countryCodeParameter<S>(
  component: string,
  description: string,
  select: (code: string, lists: SnapshotLists) => S,
): FilterRow<S> {
  return {
    key: "countryCode",
    names: ["countryCode"],
    parse: (values) => {
      const value = values.get("countryCode");
      return value === undefined ? undefined : parseCountryCode(value);
    },
    bind: (code: string) => code,
    openapi: [
      {
        component,
        parameter: {
          name: "countryCode",
          in: "query",
          description,
          schema: { type: "string", pattern: COUNTRY_CODE_PATTERN },
          example: "DE",
        },
      },
    ],
    client: "countryCode",
    select: (code: string, lists) => select(code, lists),
  };
}

/** What `q` does when no name matches as typed (decision: name search), said by both lists. */
const NEAR_SPELLINGS =
  "When no name matches so, near spellings instead: each word within 1 edit of a word of the name (insert, " +
  "delete, change, or swap two neighbours) up to 5 letters, 2 beyond, none up to 2 (the last word: of the start " +
  'of a word). Fewest edits first; the page then says `"nameMatch": "near"`.';

/** `q`: names matching words (decision: name search), or near spellings of them. */
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
          description: `${description} ${NEAR_SPELLINGS}`,
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
