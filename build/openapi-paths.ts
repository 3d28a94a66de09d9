/**
 * The operations of the OpenAPI document: parameters, headers, responses per status (spec 4.8)
 * and the six paths, rendered from the tables in openapi-operations.ts.
 */
import { MAX_CURSOR_LENGTH } from "../api/_core/cursor.js";
import { DEFAULT_RADIUS_KM, MAX_ATTRIBUTE_FILTER, MAX_RADIUS_KM } from "../api/_core/query-values.js";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../api/_core/route.js";
import { ERROR_STATUSES, OPERATIONS, type HeaderName } from "./openapi-operations.js";

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
  startsBefore: {
    name: "startsBefore",
    in: "query",
    description:
      "Only showtimes starting strictly before this instant (`startsAt < startsBefore`, exclusive, compared as " +
      "instants). With `startsAfter` it makes a window; a window nothing can fall in is a 200 with an empty page.",
    schema: ref("schemas", "DateTime"),
    example: "2026-11-24T23:00Z",
  },
  attributeIds: {
    name: "attributeIds",
    in: "query",
    description:
      `Only showtimes having **all** of these attributes: 1 to ${MAX_ATTRIBUTE_FILTER} attribute ids, comma-separated. ` +
      "Ids are percent-decoded after splitting on literal commas (an id holding a comma is sent as `%2C`). " +
      "A repeated id or an empty item is a 400; an unknown id matches nothing (200, empty page).",
    schema: { type: "string", minLength: 1 },
    example: "format-imax,lang-en",
  },
  near: {
    name: "near",
    in: "query",
    description:
      "`LATITUDE,LONGITUDE` in decimal degrees (latitude -90..90, longitude -180..180, plain decimal notation, at " +
      "most 7 decimals). Only cinemas (or showtimes at cinemas) within `radiusKm` of the point, by great-circle " +
      "distance on a sphere of radius 6371.0088 km; cinemas without coordinates never match. Cinemas near a point " +
      "are ordered by distance, then id, and carry `distanceKm`; showtimes keep their list order.",
    schema: { type: "string", pattern: "^-?\\d{1,3}(\\.\\d{1,7})?,-?\\d{1,3}(\\.\\d{1,7})?$" },
    example: "52.5200,13.4050",
  },
  radiusKm: {
    name: "radiusKm",
    in: "query",
    description: `The radius around \`near\` in km: greater than 0 and at most ${MAX_RADIUS_KM}, plain decimal notation. Default ${DEFAULT_RADIUS_KM} when \`near\` is given; without \`near\` it is a 400.`,
    schema: { type: "number", exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, default: DEFAULT_RADIUS_KM },
  },
  countryCode: {
    name: "countryCode",
    in: "query",
    description: "Only cinemas whose `location.countryCode` is this ISO 3166-1 alpha-2 code (two upper-case letters).",
    schema: { type: "string", pattern: "^[A-Z]{2}$" },
    example: "DE",
  },
  include: {
    name: "include",
    in: "query",
    description:
      "Embeds each showtime's `film` and/or `cinema`: a comma-separated subset of `film,cinema`, each at most once. " +
      "Each embedded record is the full record its get-one returns; the freshness covers them too.",
    schema: { type: "string", enum: ["film", "cinema", "film,cinema", "cinema,film"] },
  },
  showtimeId: {
    name: "showtimeId",
    in: "path",
    required: true,
    description: "The showtime's id, percent-encoded (ids may hold `/`, `%`, spaces or any Unicode).",
    schema: ID,
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

const HEADERS: Record<HeaderName, Json> = {
  "X-Request-Id": header("Identifies this request in the service's logs; equals `error.requestId` in error bodies."),
  ETag: header(
    'Strong entity tag: `"<tag>"` for the identity body, `"<tag>-gzip"` / `"<tag>-br"` for encoded ones. Send it in `If-None-Match` to get a 304.',
  ),
  "Cache-Control": header(
    "`private, max-age=60` on 200s (a shared cache must never answer for the key check); `no-store` on errors.",
  ),
  "RateLimit-Policy": header(
    'The organization\'s quota (draft-ietf-httpapi-ratelimit-headers), e.g. `"org";q=600;w=60`: 600 requests per 60-second window.',
  ),
  RateLimit: header(
    'What is left of the quota, e.g. `"org";r=599;t=39`: 599 requests remain, the window resets in 39 s.',
  ),
  "Retry-After": header("Seconds to wait before retrying.", { type: "integer", minimum: 0 }),
  "WWW-Authenticate": header('The bearer challenge, `Bearer realm="cinema-listings"`.'),
};

const RATE: HeaderName[] = ["RateLimit-Policy", "RateLimit"];

/**
 * Headers of a response: `required` ones are always sent with that status. Written out, not
 * referenced: OpenAPI 3.1 ignores a `required` beside a `$ref`.
 */
function headersOf(required: HeaderName[], optional: HeaderName[] = []): Json {
  const headers: Json = {};
  for (const name of ["X-Request-Id" as const, ...required]) headers[name] = { ...HEADERS[name], required: true };
  for (const name of optional) headers[name] = HEADERS[name];
  return headers;
}

/** Pins the error code that goes with a status (the spec leaves the pairing open; the core fixes it). */
function codeIs(code: string): Json {
  return { type: "object", properties: { error: { type: "object", properties: { code: { const: code } } } } };
}

/** Reusable responses: one per error status, plus the 304. */
export function renderResponses(): Record<string, Json> {
  const responses: Record<string, Json> = {
    NotModified: {
      description: "`If-None-Match` matched the current entity tag (checked only after the key checks pass). No body.",
      headers: headersOf(["ETag", "Cache-Control", ...RATE]),
    },
  };
  for (const status of Object.values(ERROR_STATUSES)) {
    const example = {
      error: { code: status.code, message: status.message, requestId: "6f1c2a9e-4b7d-4e0a-9c35-2d8f1b7a6e40" },
    };
    responses[status.name] = {
      description: status.description,
      headers: headersOf(status.required, status.optional),
      content: {
        "application/json": {
          schema: { allOf: [ref("schemas", "Error"), codeIs(status.code)] },
          example,
        },
      },
    };
  }
  return responses;
}

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
