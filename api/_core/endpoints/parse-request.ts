/**
 * Routing and strict query parsing (decision: strict query parsing): unknown, repeated or empty
 * parameters are 400s that name the parameter, and get-one endpoints take no parameters but their
 * table's. What each endpoint takes is its parameter table (parameters/).
 */
import { bindingOf } from "../tokens/cursor.js";
import { badParameter } from "../respond/errors.js";
import type { ListResource } from "../format/layout/manifest.js";
import { CHANGES_PARAMETERS, type ChangesQuery } from "./parameters/changes.js";
import { type CinemaQuery, CINEMA_PARAMETERS } from "./parameters/cinemas.js";
import { type FilmQuery, FILM_PARAMETERS } from "./parameters/films.js";
import { PAGING_PARAMETERS, type Paging } from "./parameters/paging.js";
import { boundFieldsOf, namesOf, type ParameterTable, parseWith, splitNamesOf } from "./parameters/parameter.js";
import { includeParameter, SHOWTIME_PARAMETERS, type ShowtimeQuery } from "./parameters/showtimes.js";
import { formDecode, MAX_ID_LENGTH } from "./parameters/query-values.js";
import { codePointLength } from "../respond/text.js";

export { DEFAULT_LIMIT, MAX_LIMIT } from "./parameters/paging.js";

/** Resources with a get-one endpoint (spec §4.4, §4.6; showtimes: decision: query parameters). */
export type OneResource = "cinemas" | "films" | "showtimes";

/** Where a list page starts and how long it is, beside the parsed query. */
interface ListPage {
  limit: number;
  /** The sort key of the record before the page (the cursor's), when a cursor was given. */
  after?: string[];
  /** The cursor binding of the endpoint and its filters (decision: pagination). */
  binding: string;
  /** The parameter names the request gave. */
  names: readonly string[];
}

export type ListRequest =
  | ({ resource: "showtimes"; query: ShowtimeQuery } & ListPage)
  | ({ resource: "cinemas"; query: CinemaQuery } & ListPage)
  | ({ resource: "films"; query: FilmQuery } & ListPage)
  | ({ resource: "attributes"; query: Paging } & ListPage);

/** Every list endpoint's parameter table. */
export const LIST_TABLES = {
  showtimes: SHOWTIME_PARAMETERS,
  cinemas: CINEMA_PARAMETERS,
  films: FILM_PARAMETERS,
  attributes: PAGING_PARAMETERS,
} as const satisfies Record<ListResource, ParameterTable>;

/** Query parameters of the get-one endpoints. */
export const ONE_TABLES: Record<OneResource, ParameterTable> = {
  cinemas: [],
  films: [],
  showtimes: [includeParameter],
};

/**
 * The only parameters a stored page is ever chosen for (decision: stored and composed pages): an
 * allow-list, so a parameter added later can never be answered with a stored, unfiltered page.
 */
const STORED_PAGE_PARAMETERS: ReadonlySet<string> = new Set(["cursor", "limit"]);

function decodeComponent(raw: string, parameter: string): string {
  const value = formDecode(raw);
  if (value === undefined) throw badParameter(parameter, "is not valid percent-encoding");
  return value;
}

const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * The request target in origin-form (path and query). An absolute-form target
 * (`GET http://host/v1/films`) is valid HTTP/1.1 (RFC 9112 §3.2.2) and routes by its path; its
 * authority is ignored as Host is (decision: absolute-form targets).
 */
export function originForm(target: string): string {
  if (target.charCodeAt(0) === 47) return target;
  const authority = ABSOLUTE_FORM.exec(target);
  if (!authority) return target;
  const rest = target.slice(authority[0].length);
  return rest.charCodeAt(0) === 47 ? rest : `/${rest}`;
}

/** Decodes a path segment holding an id and checks it can be one; a 400 names it as `parameter`. */
export function decodeId(parameter: string, rawId: string): string {
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    throw badParameter(parameter, "is not valid percent-encoding");
  }
  if (codePointLength(id) > MAX_ID_LENGTH)
    throw badParameter(parameter, `must be at most ${MAX_ID_LENGTH} characters long`);
  return id;
}

/** Splits a query string into decoded pairs, refusing repeats and empty values. */
export function parseQuery(
  rawQuery: string,
  allowed: readonly string[],
  splitBeforeDecoding: readonly string[] = [],
): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of rawQuery.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const name = decodeComponent(rawName, rawName);
    if (!allowed.includes(name)) {
      const hint = allowed.length ? `allowed: ${allowed.join(", ")}` : "this endpoint takes no query parameters";
      throw badParameter(name, `is not a parameter of this endpoint (${hint})`);
    }
    if (params.has(name)) throw badParameter(name, "is given more than once");
    const raw = eq === -1 ? "" : part.slice(eq + 1);
    const value = splitBeforeDecoding.includes(name) ? raw : decodeComponent(raw, name);
    if (value === "") throw badParameter(name, "must not be empty");
    params.set(name, value);
  }
  return params;
}

/** Parses a query by a parameter table: the values its rows check, each as its row parses it. */
export function parseTableQuery<Q>(table: ParameterTable, rawQuery: string): { query: Q; names: string[] } {
  const params = parseQuery(rawQuery, namesOf(table), splitNamesOf(table));
  return { query: parseWith<Q>(table, params), names: [...params.keys()] };
}

/**
 * Validates a list request's parameters into its parsed query, page and cursor binding; `market` is
 * the id of the market whose snapshot answers (undefined without markets), which cursors bind.
 */
export function parseListRequest(resource: ListResource, rawQuery: string, market?: string): ListRequest {
  return parseListRequestWith(LIST_TABLES[resource], resource, rawQuery, undefined, market);
}

/** The 400 of a cursor issued elsewhere: `where` it may be from, `what` to repeat; in a market, the market too. */
export function foreignCursor(where: string, what: string, market: string | undefined): never {
  const message =
    market === undefined
      ? `was issued for ${where}; repeat ${what} of the first page`
      : `was issued for another market, ${where}; repeat ${what} of the first page in the same market`;
  throw badParameter("cursor", message);
}

/**
 * A list that belongs to a record (a sub-resource, such as `/v1/films/{filmId}/cinemas`): its
 * endpoint's name and the path's ids, by parameter name, which its cursors are bound to as to any
 * filter, so a cursor of one record's list is refused on another's (decision: pagination).
 */
export interface ListScope {
  endpoint: string;
  ids: ReadonlyArray<readonly [name: string, id: string]>;
}

/**
 * parseListRequest by any table (tests add rows the product has never had), for a record's own list
 * with `scope`, in the snapshot of `market`.
 */
export function parseListRequestWith(
  table: ParameterTable,
  resource: ListResource,
  rawQuery: string,
  scope?: ListScope,
  market?: string,
): ListRequest {
  const { query, names } = parseTableQuery<Partial<ShowtimeQuery & CinemaQuery & FilmQuery> & Paging>(table, rawQuery);
  const bound = [...(scope?.ids ?? []), ...boundFieldsOf(table, query)];
  const binding = bindingOf(scope?.endpoint ?? resource, bound, market);
  const request = { resource, query, limit: query.limit, binding, names } as ListRequest;
  if (query.cursor) {
    if (query.cursor.binding !== binding || query.cursor.after.length !== sortKeyLength(resource, names))
      foreignCursor("another endpoint or other filters", "the filters", market);
    request.after = query.cursor.after;
  }
  return request;
}

/**
 * How many parts the sort key a page ends on has (record-list.ts Seek), by the parameters given:
 * [instant, id] for showtimes; for cinemas [rank]? [distance]? id; for films [rank]? [count, title]?
 * id (a count and a title with any showtime filter); [id] otherwise.
 */
function sortKeyLength(resource: ListResource, names: readonly string[]): number {
  const has = (name: string) => names.includes(name);
  if (resource === "showtimes") return 2;
  const rank = has("q") ? 1 : 0;
  if (resource === "cinemas") return rank + (has("near") ? 1 : 0) + 1;
  if (resource === "films") {
    const byCount = names.some((name) => !["q", "limit", "cursor"].includes(name));
    return rank + (byCount ? 2 : 0) + 1;
  }
  return 1;
}

/** Whether a list request asks exactly what a stored page answers: paging alone, at the default limit. */
export function isStoredPageRequest(request: ListRequest, defaultLimit: number): boolean {
  return request.limit === defaultLimit && request.names.every((name) => STORED_PAGE_PARAMETERS.has(name));
}

/** A changes feed request (decision: changes feed), parsed: its query, its cursor's position, its binding. */
export interface ChangesRequest {
  query: ChangesQuery;
  limit: number;
  binding: string;
  /** Where the page starts: the snapshot the cursor was issued by, and a phase and index in its feed. */
  position?: { snapshotId: string; phase: number; index: number };
}

const FEED_POSITION = /^([0-9a-f]{32})\.([0-9])$/;

/**
 * The feed's request, in the snapshot of `market` (undefined without markets): its cursors bind the
 * market, and a sync token another market's feed issued (or one of a snapshot without markets, and
 * the other way round) is a 400 naming `since` (decision: markets).
 */
export function parseChangesRequest(rawQuery: string, market?: string): ChangesRequest {
  const { query } = parseTableQuery<ChangesQuery>(CHANGES_PARAMETERS, rawQuery);
  if (query.since && query.since.token.market !== market)
    throw badParameter(
      "since",
      market === undefined
        ? "is a sync token of a market's feed; pass it to that market's /v1/changes"
        : "was issued by another market's feed; pass the syncToken this market's feed gave",
    );
  const binding = bindingOf("changes", boundFieldsOf(CHANGES_PARAMETERS, query), market);
  const request: ChangesRequest = { query, limit: query.limit, binding };
  if (query.cursor) {
    const [where, index] = query.cursor.after;
    const position = where === undefined ? null : FEED_POSITION.exec(where);
    if (query.cursor.binding !== binding || !position || !/^[0-9]{1,10}$/.test(index ?? ""))
      foreignCursor("another endpoint, token or limit", "those", market);
    request.position = { snapshotId: position[1]!, phase: Number(position[2]), index: Number(index) };
  }
  return request;
}
