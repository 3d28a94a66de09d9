/**
 * Routing and strict query parsing (decision: strict query parsing): unknown, repeated or empty
 * parameters are 400s that name the parameter, and get-one endpoints take no parameters at all.
 */
import { bindingOf, decodeCursor } from "./cursor.js";
import { checkDateTime } from "./date-time.js";
import { badParameter } from "./errors.js";
import type { ListResource } from "./format/manifest.js";
import type { ShowtimeFilters as ViewFilters } from "./format/snapshot.js";

/** Resources with a get-one endpoint (spec §4.4, §4.6). */
export type OneResource = "cinemas" | "films";
import { codePointLength } from "./text.js";

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
const MAX_ID_LENGTH = 160;

export type Route = { kind: "list"; resource: ListResource } | { kind: "one"; resource: OneResource; rawId: string };

export interface ListRequest {
  resource: ListResource;
  filters: ViewFilters;
  limit: number;
  startsAfter?: string;
  startsAfterKey?: string;
  after?: string[];
  binding: string;
}

const LIST_PARAMETERS: Record<ListResource, readonly string[]> = {
  showtimes: ["cursor", "limit", "cinemaId", "filmId", "startsAfter"],
  cinemas: ["cursor", "limit"],
  films: ["cursor", "limit"],
  attributes: ["cursor", "limit"],
};

/** Matches a raw path (still percent-encoded) to an endpoint; undefined is a 404. */
export function matchRoute(rawPath: string): Route | undefined {
  const segments = rawPath.split("/");
  if (segments[0] !== "" || segments[1] !== "v1") return undefined;
  const resource = segments[2] as ListResource;
  if (segments.length === 3 && Object.hasOwn(LIST_PARAMETERS, resource)) return { kind: "list", resource };
  if (segments.length === 4 && (resource === "cinemas" || resource === "films") && segments[3] !== "") {
    return { kind: "one", resource, rawId: segments[3]! };
  }
  return undefined;
}

function decodeComponent(raw: string, parameter: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    throw badParameter(parameter, "is not valid percent-encoding");
  }
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

/** Decodes a get-one path segment and checks it can be an id. */
export function decodeId(route: Extract<Route, { kind: "one" }>): string {
  const parameter = route.resource === "cinemas" ? "cinemaId" : "filmId";
  let id: string;
  try {
    id = decodeURIComponent(route.rawId);
  } catch {
    throw badParameter(parameter, "is not valid percent-encoding");
  }
  if (codePointLength(id) > MAX_ID_LENGTH)
    throw badParameter(parameter, `must be at most ${MAX_ID_LENGTH} characters long`);
  return id;
}

/** Splits a query string into decoded pairs, refusing repeats and empty values. */
export function parseQuery(rawQuery: string, allowed: readonly string[]): Map<string, string> {
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
    const value = eq === -1 ? "" : decodeComponent(part.slice(eq + 1), name);
    if (value === "") throw badParameter(name, "must not be empty");
    params.set(name, value);
  }
  return params;
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  if (!/^[0-9]{1,9}$/.test(value) || Number(value) < 1 || Number(value) > MAX_LIMIT) {
    throw badParameter("limit", `must be a whole number from 1 to ${MAX_LIMIT} written in digits`);
  }
  return Number(value);
}

function parseIdFilter(params: Map<string, string>, name: "cinemaId" | "filmId"): string | undefined {
  const value = params.get(name);
  if (value !== undefined && codePointLength(value) > MAX_ID_LENGTH) {
    throw badParameter(name, `must be at most ${MAX_ID_LENGTH} characters long`);
  }
  return value;
}

/** Validates a list request's parameters into what the page logic needs. */
export function parseListRequest(resource: ListResource, rawQuery: string): ListRequest {
  const params = parseQuery(rawQuery, LIST_PARAMETERS[resource]);
  const filters: ViewFilters = {};
  const cinemaId = parseIdFilter(params, "cinemaId");
  const filmId = parseIdFilter(params, "filmId");
  if (cinemaId !== undefined) filters.cinemaId = cinemaId;
  if (filmId !== undefined) filters.filmId = filmId;
  const request: ListRequest = { resource, filters, limit: parseLimit(params.get("limit")), binding: "" };
  const startsAfter = params.get("startsAfter");
  if (startsAfter !== undefined) {
    const check = checkDateTime(startsAfter);
    if (!check.ok) throw badParameter("startsAfter", `is not a valid date-time (${check.reason})`);
    request.startsAfter = startsAfter;
    request.startsAfterKey = check.instantKey;
  }
  request.binding = bindingOf(resource, { ...filters, startsAfter });
  const cursor = params.get("cursor");
  if (cursor !== undefined) request.after = parseCursor(cursor, request);
  return request;
}

function parseCursor(token: string, request: ListRequest): string[] {
  const cursor = decodeCursor(token);
  if (!cursor) throw badParameter("cursor", "is not a cursor this API issued; pass nextCursor back unchanged");
  const keyLength = request.resource === "showtimes" ? 2 : 1;
  if (cursor.binding !== request.binding || cursor.after.length !== keyLength) {
    throw badParameter(
      "cursor",
      "was issued for another endpoint or other filters; repeat the filters of the first page",
    );
  }
  return cursor.after;
}
