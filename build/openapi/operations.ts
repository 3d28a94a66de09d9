/**
 * The tables the OpenAPI paths are rendered from: the operations (their words here, the rest from
 * the route table) and each error status.
 */
import type { ParameterTable } from "../../api/_core/endpoints/parameters/parameter.js";
import { isGetOne, type OperationId, ROUTES, templateOf } from "../../api/_core/endpoints/routes.js";

export type HeaderName =
  | "X-Request-Id"
  | "ETag"
  | "Cache-Control"
  | "RateLimit-Policy"
  | "RateLimit"
  | "Retry-After"
  | "WWW-Authenticate";

const RATE: HeaderName[] = ["RateLimit-Policy", "RateLimit"];

export interface ErrorStatus {
  /** The name of the reusable response. */
  name: string;
  code: string;
  description: string;
  /** Headers always sent with this status (X-Request-Id always is). */
  required: HeaderName[];
  /** Headers sent when the request got past the key checks (the organization and its quota known). */
  optional?: HeaderName[];
  /** The example's message: what the core really says. */
  message: string;
}

/** Each error status of spec 4.8 with the code the service sends with it. */
export const ERROR_STATUSES: Record<string, ErrorStatus> = {
  "400": {
    name: "BadRequest",
    code: "bad_request",
    required: ["Cache-Control"],
    // The server's HTTP parser refuses a malformed request before any key is read: no organization, no quota.
    optional: RATE,
    message: "limit: must be a whole number from 1 to 100 written in digits",
    description:
      "A query or path parameter is invalid: unknown, repeated, empty, out of range, or a cursor that was " +
      "altered or issued for other filters. `details.parameter` names it. Such a 400 comes after the key " +
      "checks and carries `RateLimit-Policy` and `RateLimit`. A request the server cannot read as HTTP " +
      "(a malformed request line or header, an HTTP/1.1 request without `Host`) is a 400 answered before " +
      "any key is read, so it has no organization and carries neither.",
  },
  "401": {
    name: "Unauthorized",
    code: "unauthorized",
    required: ["Cache-Control", "WWW-Authenticate"],
    message: "An API key is required: send the header Authorization: Bearer <API_KEY>.",
    description:
      "No `Authorization: Bearer` header, or the key is unknown, revoked or expired. Checked first: such a " +
      "request learns nothing else.",
  },
  "403": {
    name: "EntitlementRequired",
    code: "entitlement_required",
    required: ["Cache-Control", ...RATE],
    message: "Your organization has no active paid entitlement for this API.",
    description:
      "The key is valid but its organization has no active paid entitlement now; in a deployment with markets, " +
      "none for the market the request is for, which `details.market` names (`GET /markets` says which " +
      "markets the key may use).",
  },
  "404": {
    name: "NotFound",
    code: "not_found",
    required: ["Cache-Control", ...RATE],
    message: 'No cinema has the id "nope".',
    description: "No record has this id (get-one endpoints), or no such endpoint.",
  },
  "410": {
    name: "SyncTokenExpired",
    code: "not_found",
    required: ["Cache-Control", ...RATE],
    message:
      "This sync token is older than the history the service keeps, or of a history that began afresh: " +
      "start a full copy at /v1/changes.",
    description:
      "The changes feed only: `since` names a snapshot older than the history the service keeps (at least the last " +
      "30 snapshots and 7 days), or of a history that began afresh (`details.reason` `sync_token_expired`, " +
      "`details.restart` `/v1/changes`: start a full copy); or the data changed while paging (`sync_page_expired`, " +
      "`details.restart` the first page of the same sync).",
  },
  "429": {
    name: "RateLimited",
    code: "rate_limited",
    required: ["Cache-Control", "Retry-After", ...RATE],
    message: "Rate limit of 600 requests per 60 s exceeded; retry in 12 s.",
    description:
      "The organization used up its quota for the current window (all its keys count together). " +
      "`Retry-After` says when to retry.",
  },
  "500": {
    name: "InternalError",
    code: "internal_error",
    required: ["Cache-Control"],
    optional: RATE,
    message: "An unexpected error occurred; quote the request id when reporting it.",
    description: "An unexpected error. It is logged with the request id; the body carries no internals.",
  },
  "503": {
    name: "DatabaseUnavailable",
    code: "database_unavailable",
    required: ["Cache-Control", "Retry-After"],
    optional: RATE,
    message: "The listings data is temporarily unavailable; retry shortly.",
    description:
      "The listings data is missing or unreadable on this deployment, or a new instance could not yet read the " +
      "latest keys (a key it may not refuse is not admitted either); retry after `Retry-After` seconds.",
  },
};

/** What the document says of an operation in words: its route (routes.ts) says the rest. */
interface OperationText {
  tag: string;
  summary: string;
  description: string;
  /** The component schema of the 200 body. */
  result: string;
  /** The changes feed also answers 410. */
  feed?: boolean;
  /** Operations a 200 leads to (OpenAPI links), so a client or fuzzer follows real ids. */
  links?: readonly Link[];
}

/** An operation as the document renders it: its words, and what its route says. */
export interface Operation extends OperationText {
  operationId: OperationId;
  path: string;
  /** Names in PARAMETERS (paths.ts): the path's ids, then the route's query parameters. */
  parameters: string[];
  /** Answers one record (spec §4.4, §4.6). */
  getOne: boolean;
  /** Its path names a record: a 404 when it names none. */
  notFound: boolean;
  /** Served at the origin, not under a market's base address (`/markets`). */
  atOrigin: boolean;
}

/** A get-one operation whose path parameter is a value of the 200 body, at a JSON pointer. */
export interface Link {
  operationId: string;
  parameter: string;
  pointer: string;
}

const link = (operationId: string, parameter: string, pointer: string): Link => ({ operationId, parameter, pointer });

/**
 * The OpenAPI components of a parameter table's rows, as the reference lists them: what narrows or
 * shapes the page first, then paging (cursor, limit).
 */
function documented(table: ParameterTable): string[] {
  const paging = ["cursor", "limit"];
  const components = table.flatMap((row) => row.openapi.map((o) => o.component));
  return [...components.filter((c) => !paging.includes(c)), ...paging.filter((c) => components.includes(c))];
}

const TEXTS: Record<OperationId, OperationText> = {
  listShowtimes: {
    links: [
      link("getShowtime", "showtimeId", "/data/0/id"),
      link("getFilm", "filmId", "/data/0/filmId"),
      link("getCinema", "cinemaId", "/data/0/cinemaId"),
    ],
    tag: "Showtimes",
    summary: "List showtimes",
    result: "ShowtimePage",
    description:
      "Showtimes ordered by `startsAt` as an instant (offsets applied, every fractional digit kept), then by `id`. " +
      "Filters combine with AND; a filter that matches nothing gives 200 with an empty page. The cursor is bound " +
      "to every filter.",
  },
  getShowtime: {
    links: [link("getFilm", "filmId", "/data/filmId"), link("getCinema", "cinemaId", "/data/cinemaId")],
    tag: "Showtimes",
    summary: "Get a showtime",
    result: "ShowtimeResult",
    description: "One showtime by id, with its film and/or cinema when `include` asks. Takes no other parameter.",
  },
  listCinemas: {
    links: [link("getCinema", "cinemaId", "/data/0/id")],
    tag: "Cinemas",
    summary: "List cinemas",
    result: "CinemaPage",
    description:
      "Cinemas ordered by `id` (plain string comparison); near a point, by distance then `id`, each with " +
      "`distanceKm` (rounded to 3 decimals). With showtime filters (`filmId`, `startsAfter`, `startsBefore`, " +
      "`date`, `dayStartsAt`, `attributeIds`, `anyAttributeIds`), only cinemas having a showtime that matches " +
      "all of them, each " +
      "with `matchingShowtimes` (how many, the first one's `startsAt`): \"where is this film showing near me " +
      'tonight" is one request. With `q`, cinemas whose name matches it whole come first, then names starting ' +
      "with it, then the rest, each in the order above.",
  },
  getCinema: {
    tag: "Cinemas",
    summary: "Get a cinema",
    result: "CinemaResult",
    description: "One cinema by id. Takes no query parameters: any is a 400.",
  },
  listFilms: {
    links: [link("getFilm", "filmId", "/data/0/id")],
    tag: "Films",
    summary: "List films",
    result: "FilmPage",
    description:
      "Films ordered by `id` (plain string comparison). With showtime filters (`cinemaId`, `near`, " +
      "`countryCode`, `date`, `dayStartsAt`, `startsAfter`, `startsBefore`, `attributeIds`, `anyAttributeIds`, " +
      "meaning what they mean on `/v1/showtimes`), only films having a showtime that matches all of them, each with " +
      "`matchingShowtimes` (how many, at how many cinemas, the first one's `startsAt`), ordered by most " +
      "matching showtimes, then title (compared as name search folds it), then `id`: \"what's on near me " +
      'tonight" is one request. With `q`, titles matching it whole come first, then titles starting with it, ' +
      "then the rest, each in the order above.",
  },
  getFilm: {
    tag: "Films",
    summary: "Get a film",
    result: "FilmResult",
    description: "One film by id. Takes no query parameters: any is a 400.",
  },
  listAttributes: {
    tag: "Attributes",
    summary: "List showtime attributes",
    result: "AttributePage",
    description:
      "Showtime attributes ordered by `id`. The page's freshness is the snapshot's, as attributes carry no provenance.",
  },
  listChanges: {
    tag: "Changes",
    summary: "Changes since a sync token",
    result: "ChangesPage",
    feed: true,
    description:
      "Keeps a mirror in sync. Without `since`: a full copy, every record as an upsert. With `since` (the " +
      "`syncToken` of " +
      "an earlier sync's last page): the changes since then. Pages are ordered so that applying them in order never " +
      "leaves a showtime pointing at a missing film, cinema or attribute: upserts of attributes, cinemas and films; " +
      "showtime deletions, then upserts; deletions of films, cinemas, attributes. A page holds at most " +
      "`limit` changes " +
      "and 4 MB. `syncToken` comes on the last page: store it after applying that page. Showtimes that start before " +
      "`dropBefore` are left out, never deleted one by one: a mirror drops them itself. The cursor is " +
      "bound to `since` " +
      "and `limit`.",
  },
  listPlaces: {
    tag: "Places",
    summary: "Find places by name",
    result: "PlacePage",
    description:
      "Places by name, so that a place a person names becomes the coordinates `near` takes: towns of the snapshot's " +
      "countries (every place of 1,000 inhabitants or more in the GeoNames gazetteer, with its region), and the " +
      "snapshot's own cinema localities and postcode districts (at the mean position of their cinemas). Each " +
      "says how many cinemas lie within 25 km of it (`near` with its coordinates and the default `radiusKm` " +
      "lists exactly those); a place with none is listed too, with 0. Ordered by how `q` matches (the whole " +
      "name, then names starting with it, then the rest), then by that count, most first. Towns are " +
      "GeoNames data (https://www.geonames.org), licensed CC BY 4.0: each page says so in `attribution`, " +
      "which an application showing places passes on.",
  },
  listMarkets: {
    tag: "Markets",
    summary: "List markets",
    result: "MarketList",
    description:
      "Every market the deployment serves, with its base address, what its data holds and whether your key " +
      "may use it; at the origin (`/markets`), never under a market. It takes no query parameters. An " +
      "organization needs an active paid entitlement (for any market) to read it. A deployment without " +
      "markets lists its one market, at `/v1`, with `id` null.",
  },
};

/** Every operation, in the route table's order. */
export const OPERATIONS: Operation[] = ROUTES.map((route) => ({
  ...TEXTS[route.operationId],
  operationId: route.operationId,
  path: templateOf(route),
  parameters: [...route.ids.map((id) => id.parameter), ...documented(route.table)],
  getOne: isGetOne(route),
  notFound: route.ids.length > 0,
  atOrigin: route.path[0] !== "v1",
}));
