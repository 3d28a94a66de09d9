/**
 * The operations of the OpenAPI document: parameters, headers, responses per status (spec 4.8)
 * and the six paths. Error responses pin the code each status carries.
 */
import { DEFAULT_LIMIT, MAX_LIMIT } from "../api/_core/route.js";
import { MAX_CURSOR_LENGTH } from "../api/_core/cursor.js";

type Json = Record<string, unknown>;

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const ID = { type: "string", minLength: 1, maxLength: 160 };

export const PARAMETERS: Record<string, Json> = {
  cursor: {
    name: "cursor",
    in: "query",
    description:
      "The `nextCursor` of the previous page, unchanged. Opaque and integrity-checked: an altered cursor, or one " +
      "reused on another endpoint or with other filters, is a 400. `limit` may change between pages. A cursor " +
      "names the last record it served, so it keeps working across data updates.",
    schema: { type: "string", minLength: 1, maxLength: MAX_CURSOR_LENGTH },
  },
  limit: {
    name: "limit",
    in: "query",
    description: `Page size: a whole number from 1 to ${MAX_LIMIT} in plain decimal digits (\`0\`, \`101\`, \`1.5\`, \`1e1\`, \`-1\` are 400s). Default ${DEFAULT_LIMIT}.`,
    schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
  },
  cinemaIdFilter: {
    name: "cinemaId",
    in: "query",
    description: "Only showtimes at this cinema. An id that matches nothing gives an empty page, not a 404.",
    schema: ID,
  },
  filmIdFilter: {
    name: "filmId",
    in: "query",
    description: "Only showtimes of this film. An id that matches nothing gives an empty page, not a 404.",
    schema: ID,
  },
  startsAfter: {
    name: "startsAfter",
    in: "query",
    description:
      "Only showtimes starting strictly after this instant (`startsAt > startsAfter`, exclusive, compared as " +
      "instants so offsets are applied). The spec's date-time form: seconds optional, zone required.",
    schema: ref("schemas", "DateTime"),
    example: "2026-11-24T18:00Z",
  },
  cinemaId: {
    name: "cinemaId",
    in: "path",
    required: true,
    description: "The cinema's id, percent-encoded (ids may hold `/`, `%`, spaces or any Unicode).",
    schema: ID,
  },
  filmId: {
    name: "filmId",
    in: "path",
    required: true,
    description: "The film's id, percent-encoded (ids may hold `/`, `%`, spaces or any Unicode).",
    schema: ID,
  },
};

const header = (description: string, schema: Json = { type: "string" }) => ({ description, schema });

export const HEADERS: Record<string, Json> = {
  "X-Request-Id": header("Identifies this request in the service's logs; equals `error.requestId` in error bodies."),
  ETag: header("Strong entity tag: `\"<tag>\"` for the identity body, `\"<tag>-gzip\"` / `\"<tag>-br\"` for encoded ones. Send it in `If-None-Match` to get a 304."),
  "Cache-Control": header("`private, max-age=60` on 200s (a shared cache must never answer for the key check); `no-store` on errors."),
  "RateLimit-Policy": header("The organization's quota (draft-ietf-httpapi-ratelimit-headers), e.g. `\"org\";q=600;w=60`: 600 requests per 60-second window."),
  RateLimit: header("What is left of the quota, e.g. `\"org\";r=599;t=39`: 599 requests remain, the window resets in 39 s."),
  "Retry-After": header("Seconds to wait before retrying.", { type: "integer", minimum: 0 }),
  "WWW-Authenticate": header("The bearer challenge, `Bearer realm=\"cinema-listings\"`."),
};

type HeaderName = keyof typeof HEADERS;
const RATE: HeaderName[] = ["RateLimit-Policy", "RateLimit"];

/** Headers of a response: `required` ones are always sent with that status. */
function headersOf(required: HeaderName[], optional: HeaderName[] = []): Json {
  const headers: Json = {};
  for (const name of ["X-Request-Id", ...required]) headers[name] = { ...ref("headers", name), required: true };
  for (const name of optional) headers[name] = ref("headers", name);
  return headers;
}

interface ErrorStatus {
  name: string;
  code: string;
  description: string;
  required: HeaderName[];
  optional?: HeaderName[];
  message: string;
}

/** Each status of spec 4.8 with the code the service sends with it. */
export const ERROR_STATUSES: Record<string, ErrorStatus> = {
  "400": { name: "BadRequest", code: "bad_request", required: ["Cache-Control", ...RATE], message: "limit: must be a whole number from 1 to 100 written in digits",
    description: "A query or path parameter is invalid: unknown, repeated, empty, out of range, or a cursor that was altered or issued for other filters. `details.parameter` names it." },
  "401": { name: "Unauthorized", code: "unauthorized", required: ["Cache-Control", "WWW-Authenticate"], message: "An API key is required: send the header Authorization: Bearer <API_KEY>.",
    description: "No `Authorization: Bearer` header, or the key is unknown, revoked or expired. Checked first: such a request learns nothing else." },
  "403": { name: "EntitlementRequired", code: "entitlement_required", required: ["Cache-Control", ...RATE], message: "Your organization has no active paid entitlement for this API.",
    description: "The key is valid but its organization has no active paid entitlement now." },
  "404": { name: "NotFound", code: "not_found", required: ["Cache-Control", ...RATE], message: "No cinema has the id \"nope\".",
    description: "No record has this id (get-one endpoints), or no such endpoint." },
  "429": { name: "RateLimited", code: "rate_limited", required: ["Cache-Control", "Retry-After", ...RATE], message: "Rate limit of 600 requests per 60 s exceeded; retry in 12 s.",
    description: "The organization used up its quota for the current window (all its keys count together). `Retry-After` says when to retry." },
  "500": { name: "InternalError", code: "internal_error", required: ["Cache-Control"], optional: RATE, message: "An unexpected error occurred; quote the request id when reporting it.",
    description: "An unexpected error. It is logged with the request id; the body carries no internals." },
  "503": { name: "DatabaseUnavailable", code: "database_unavailable", required: ["Cache-Control", "Retry-After"], optional: RATE, message: "The listings data is temporarily unavailable; retry shortly.",
    description: "The listings data is missing or unreadable on this deployment; retry after `Retry-After` seconds." },
};

/** Reusable responses: one per error status, plus the 304. */
export function renderResponses(): Record<string, Json> {
  const responses: Record<string, Json> = {
    NotModified: {
      description: "`If-None-Match` matched the current entity tag (checked only after the key checks pass). No body.",
      headers: headersOf(["ETag", "Cache-Control", ...RATE]),
    },
  };
  for (const status of Object.values(ERROR_STATUSES)) {
    const example = { error: { code: status.code, message: status.message, requestId: "6f1c2a9e-4b7d-4e0a-9c35-2d8f1b7a6e40" } };
    responses[status.name] = {
      description: status.description,
      headers: headersOf(status.required, status.optional),
      content: {
        "application/json": {
          schema: { allOf: [ref("schemas", "Error"), { properties: { error: { properties: { code: { const: status.code } } } } }] },
          example,
        },
      },
    };
  }
  return responses;
}

interface Operation {
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  parameters: string[];
  result: string;
  getOne?: boolean;
}

export const OPERATIONS: Operation[] = [
  { path: "/v1/showtimes", operationId: "listShowtimes", tag: "Showtimes", summary: "List showtimes", result: "ShowtimePage",
    parameters: ["cinemaIdFilter", "filmIdFilter", "startsAfter", "cursor", "limit"],
    description: "Showtimes ordered by `startsAt` as an instant (offsets applied, every fractional digit kept), then by `id`. Filters combine with AND; a filter that matches nothing gives 200 with an empty page." },
  { path: "/v1/cinemas", operationId: "listCinemas", tag: "Cinemas", summary: "List cinemas", result: "CinemaPage",
    parameters: ["cursor", "limit"], description: "Cinemas ordered by `id` (plain string comparison)." },
  { path: "/v1/cinemas/{cinemaId}", operationId: "getCinema", tag: "Cinemas", summary: "Get a cinema", result: "CinemaResult",
    parameters: ["cinemaId"], getOne: true, description: "One cinema by id. Takes no query parameters: any is a 400." },
  { path: "/v1/films", operationId: "listFilms", tag: "Films", summary: "List films", result: "FilmPage",
    parameters: ["cursor", "limit"], description: "Films ordered by `id` (plain string comparison)." },
  { path: "/v1/films/{filmId}", operationId: "getFilm", tag: "Films", summary: "Get a film", result: "FilmResult",
    parameters: ["filmId"], getOne: true, description: "One film by id. Takes no query parameters: any is a 400." },
  { path: "/v1/attributes", operationId: "listAttributes", tag: "Attributes", summary: "List showtime attributes", result: "AttributePage",
    parameters: ["cursor", "limit"], description: "Showtime attributes ordered by `id`. The page's freshness is the snapshot's, as attributes carry no provenance." },
];

/** The `paths` object: one GET operation per endpoint. */
export function renderPaths(): Json {
  const paths: Json = {};
  for (const op of OPERATIONS) {
    const responses: Json = {
      "200": {
        description: "OK.",
        headers: headersOf(["ETag", "Cache-Control", ...RATE]),
        content: { "application/json": { schema: ref("schemas", op.result) } },
      },
      "304": ref("responses", "NotModified"),
    };
    for (const [status, error] of Object.entries(ERROR_STATUSES)) {
      // Spec 4.8: only get-one endpoints answer 404 (an unknown path is a 404 too, but is no operation).
      if (status !== "404" || op.getOne) responses[status] = ref("responses", error.name);
    }
    paths[op.path] = {
      get: {
        operationId: op.operationId,
        tags: [op.tag],
        summary: op.summary,
        description: op.description,
        parameters: op.parameters.map((name) => ref("parameters", name)),
        responses,
      },
    };
  }
  return paths;
}
