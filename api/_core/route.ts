/**
 * Routing and strict query parsing (decision: strict query parsing): unknown, repeated or empty
 * parameters are 400s that name the parameter, and get-one endpoints take no parameters at all.
 */
import { bindingOf, decodeCursor } from "./cursor.js";
import { checkDateTime } from "./date-time.js";
import { badParameter } from "./errors.js";
import type { ListResource } from "./format/layout/manifest.js";
import type { Near } from "./format/query/cinema-selection.js";
import type { ShowtimeFilters as ViewFilters } from "./format/read/snapshot.js";
import {
  DEFAULT_RADIUS_KM,
  formDecode,
  MAX_ID_LENGTH,
  parseAttributeIds,
  parseCountryCode,
  parseInclude,
  parseNear,
  parseRadiusKm,
  type Embedded,
} from "./query-values.js";
import { clipText, codePointLength } from "./text.js";

/** Resources with a get-one endpoint (spec §4.4, §4.6; showtimes: decision: query parameters). */
export type OneResource = "cinemas" | "films" | "showtimes";

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

export type Route = { kind: "list"; resource: ListResource } | { kind: "one"; resource: OneResource; rawId: string };

export interface ListRequest {
  resource: ListResource;
  filters: ViewFilters;
  limit: number;
  startsAfter?: string;
  startsAfterKey?: string;
  after?: string[];
  binding: string;
  /** Instant key of startsBefore (exclusive). */
  startsBeforeKey?: string;
  attributeIds?: string[];
  near?: Near;
  countryCode?: string;
  include?: Embedded[];
}

const LIST_PARAMETERS: Record<ListResource, readonly string[]> = {
  showtimes: [
    "cursor",
    "limit",
    "cinemaId",
    "filmId",
    "startsAfter",
    "startsBefore",
    "attributeIds",
    "near",
    "radiusKm",
    "include",
  ],
  cinemas: ["cursor", "limit", "near", "radiusKm", "countryCode"],
  films: ["cursor", "limit"],
  attributes: ["cursor", "limit"],
};

/** Query parameters of the get-one endpoints. */
export const ONE_PARAMETERS: Record<OneResource, readonly string[]> = {
  cinemas: [],
  films: [],
  showtimes: ["include"],
};

/** Parameters whose value is split before it is percent-decoded (an item may hold an encoded comma). */
const SPLIT_BEFORE_DECODING = ["attributeIds"];

/** Matches a raw path (still percent-encoded) to an endpoint; undefined is a 404. */
export function matchRoute(rawPath: string): Route | undefined {
  const segments = rawPath.split("/");
  if (segments[0] !== "" || segments[1] !== "v1") return undefined;
  const resource = segments[2] as ListResource;
  if (segments.length === 3 && Object.hasOwn(LIST_PARAMETERS, resource)) return { kind: "list", resource };
  if (segments.length === 4 && Object.hasOwn(ONE_PARAMETERS, resource) && segments[3] !== "") {
    return { kind: "one", resource: resource as OneResource, rawId: segments[3]! };
  }
  return undefined;
}

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

/** Decodes a get-one path segment and checks it can be an id. */
export function decodeId(route: Extract<Route, { kind: "one" }>): string {
  const parameter = ({ cinemas: "cinemaId", films: "filmId", showtimes: "showtimeId" } as const)[route.resource];
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
    const raw = eq === -1 ? "" : part.slice(eq + 1);
    const value = SPLIT_BEFORE_DECODING.includes(name) ? raw : decodeComponent(raw, name);
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

function parseDateTimeParameter(params: Map<string, string>, name: "startsAfter" | "startsBefore"): string | undefined {
  const value = params.get(name);
  if (value === undefined) return undefined;
  const check = checkDateTime(value);
  if (!check.ok) {
    // An unencoded "+" of an offset arrives as a space (form decoding): say so.
    const hint = /\d \d{2}:\d{2}$/.test(value)
      ? '; a "+" in a query is read as a space: send the offset as %2B01:00'
      : "";
    throw badParameter(
      name,
      `is not a valid date-time (${check.reason}): received ${JSON.stringify(clipText(value, 40))}${hint}`,
    );
  }
  return check.instantKey;
}

/** `near` and `radiusKm` (default 25 km); a radius without a point is a 400 naming radiusKm. */
function parsePlace(params: Map<string, string>): Near | undefined {
  const near = params.get("near");
  const radius = params.get("radiusKm");
  if (near === undefined) {
    if (radius !== undefined) throw badParameter("radiusKm", "is given without near; send near=LATITUDE,LONGITUDE too");
    return undefined;
  }
  const point = parseNear(near);
  return { ...point, radiusKm: radius === undefined ? DEFAULT_RADIUS_KM : parseRadiusKm(radius) };
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
  const startsAfterKey = parseDateTimeParameter(params, "startsAfter");
  if (startsAfterKey !== undefined) {
    request.startsAfter = params.get("startsAfter");
    request.startsAfterKey = startsAfterKey;
  }
  const startsBeforeKey = parseDateTimeParameter(params, "startsBefore");
  if (startsBeforeKey !== undefined) request.startsBeforeKey = startsBeforeKey;
  const attributeIds = params.get("attributeIds");
  if (attributeIds !== undefined) request.attributeIds = parseAttributeIds(attributeIds);
  const near = parsePlace(params);
  if (near) request.near = near;
  const countryCode = params.get("countryCode");
  if (countryCode !== undefined) request.countryCode = parseCountryCode(countryCode);
  const include = params.get("include");
  if (include !== undefined) request.include = parseInclude(include);
  request.binding = bindingOf(resource, {
    ...filters,
    startsAfter: request.startsAfter,
    startsBefore: request.startsBeforeKey,
    attributeIds: request.attributeIds,
    near: request.near,
    countryCode: request.countryCode,
  });
  const cursor = params.get("cursor");
  if (cursor !== undefined) request.after = parseCursor(cursor, request);
  return request;
}

/** Whether a list request asks only what every list could always answer (its pages may be stored). */
export function isPlainList(request: ListRequest): boolean {
  return (
    request.startsBeforeKey === undefined &&
    request.attributeIds === undefined &&
    request.near === undefined &&
    request.countryCode === undefined &&
    request.include === undefined
  );
}

function parseCursor(token: string, request: ListRequest): string[] {
  const cursor = decodeCursor(token);
  if (!cursor) throw badParameter("cursor", "is not a cursor this API issued; pass nextCursor back unchanged");
  // The sort key a page ends on: [instant, id] for showtimes, [distance, id] for cinemas near a point, else [id].
  const keyLength = request.resource === "showtimes" || request.near ? 2 : 1;
  if (cursor.binding !== request.binding || cursor.after.length !== keyLength) {
    throw badParameter(
      "cursor",
      "was issued for another endpoint or other filters; repeat the filters of the first page",
    );
  }
  return cursor.after;
}
