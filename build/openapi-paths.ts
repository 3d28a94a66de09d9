/**
 * The operations of the OpenAPI document: parameters, headers, responses per status (spec 4.8)
 * and the six paths, rendered from the tables in openapi-operations.ts.
 */
import { MAX_CURSOR_LENGTH } from "../api/_core/cursor.js";
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
