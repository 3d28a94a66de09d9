/**
 * The operations of the OpenAPI document: parameters, headers, responses per status (spec 4.8)
 * and the six paths, rendered from the tables in openapi-operations.ts.
 */
import { SINGULAR } from "../../api/_core/endpoints/path-ids.js";
import { ROUTES } from "../../api/_core/endpoints/routes.js";
import { PATH_EXAMPLES } from "./examples.js";
import { ERROR_STATUSES, OPERATIONS, type HeaderName, type Link } from "./operations.js";
import { codeSamples } from "./samples.js";

type Json = Record<string, unknown>;

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const ID = { type: "string", minLength: 1, maxLength: 160 };

/** A get-one endpoint's path parameter, with a demo record's id as its example. */
function pathParameter(name: string, record: string): Json {
  return {
    name,
    in: "path",
    required: true,
    description: `The ${record}'s id, percent-encoded (ids may hold \`/\`, \`%\`, spaces or any Unicode).`,
    schema: ID,
    example: PATH_EXAMPLES[name],
  };
}

/** Path parameters: each id a route's path names (routes.ts). */
const PATH_PARAMETERS: Record<string, Json> = Object.fromEntries(
  ROUTES.flatMap((route) => route.ids).map((id) => [id.parameter, pathParameter(id.parameter, SINGULAR[id.names])]),
);

/**
 * Every parameter the operations reference: the query parameters of every endpoint's parameter
 * table (api/_core/parameters/), then the path parameters. A component two tables share is one
 * definition (the place filter), so both must describe it alike.
 */
export const PARAMETERS: Record<string, Json> = (() => {
  const components: Record<string, Json> = {};
  for (const table of ROUTES.map((route) => route.table)) {
    for (const { component, parameter } of table.flatMap((row) => row.openapi)) {
      const known = components[component];
      if (known && JSON.stringify(known) !== JSON.stringify(parameter))
        throw new Error(`two tables describe the parameter ${component} differently`);
      components[component] = parameter;
    }
  }
  return { ...components, ...PATH_PARAMETERS };
})();

const header = (description: string, schema: Json = { type: "string" }) => ({ description, schema });

const HEADERS: Record<HeaderName, Json> = {
  "X-Request-Id": header("Identifies this request in the service's logs; equals `error.requestId` in error bodies."),
  ETag: header(
    'Strong entity tag: `"<tag>"` for the identity body, `"<tag>-gzip"` / `"<tag>-br"` for encoded ones. ' +
      "Send it in `If-None-Match` to get a 304.",
  ),
  "Cache-Control": header(
    "`private, max-age=60` on 200s (a shared cache must never answer for the key check); `no-store` on errors.",
  ),
  "RateLimit-Policy": header(
    "The organization's quota (draft-ietf-httpapi-ratelimit-headers), e.g. " +
      '`"org";q=600;w=60`: 600 requests per 60-second window.',
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

/** A JSON pointer as a reader writes the path: `/data/0/filmId` is `data[0].filmId`. */
function pathOf(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((token) => (/^[0-9]+$/.test(token) ? `[${token}]` : `.${token}`))
    .join("")
    .slice(1);
}

/**
 * A 200's OpenAPI links, named by the operation each leads to: its path parameter is the value at a
 * JSON pointer of the body (a runtime expression, OpenAPI 3.1 §4.8.20.4).
 */
function renderLinks(links: readonly Link[]): Json {
  const rendered: Json = {};
  for (const { operationId, parameter, pointer } of links) {
    const target = OPERATIONS.find((op) => op.operationId === operationId);
    if (!target?.parameters.includes(parameter)) throw new Error(`no operation ${operationId} takes ${parameter}`);
    rendered[operationId] = {
      operationId,
      parameters: { [parameter]: `$response.body#${pointer}` },
      description: `${target.summary}: the one whose id is \`${pathOf(pointer)}\` of this body.`,
    };
  }
  return rendered;
}

/** The deployment itself, where the document is served: the API without markets, or its default market. */
export const ORIGIN_SERVER = {
  url: "/",
  description:
    "This deployment: the API is served where this document is (in a deployment with markets, its " +
    "default market, if it has one).",
};

/** A market of a deployment with markets: its operations are under its id (decision: markets). */
export const MARKET_SERVER = {
  url: "/{market}",
  description: "One market of a deployment with markets: `GET /markets` lists them, each with its `basePath`.",
  variables: { market: { default: "gb", description: "The market's id, such as `gb` or `dach`." } },
};

/** The `paths` object: one GET operation per endpoint. */
export function renderPaths(): Json {
  const paths: Json = {};
  for (const op of OPERATIONS) {
    const responses: Json = {
      "200": {
        description: "OK.",
        headers: headersOf(["ETag", "Cache-Control", ...RATE]),
        content: { "application/json": { schema: ref("schemas", op.result) } },
        ...(op.links ? { links: renderLinks(op.links) } : {}),
      },
      "304": ref("responses", "NotModified"),
    };
    for (const [status, error] of Object.entries(ERROR_STATUSES)) {
      // Spec 4.8: only an operation whose path names a record answers 404 (an unknown path is a 404
      // too, but is no operation); only the changes feed answers 410.
      if ((status !== "404" || op.notFound) && (status !== "410" || op.feed))
        responses[status] = ref("responses", error.name);
    }
    paths[op.path] = {
      // A market's server (`/{market}`) never prefixes it (decision: markets).
      ...(op.atOrigin ? { servers: [ORIGIN_SERVER] } : {}),
      get: {
        operationId: op.operationId,
        tags: [op.tag],
        summary: op.summary,
        description: op.description,
        parameters: op.parameters.map((name) => ref("parameters", name)),
        responses,
        // Redoc's request samples, one per operation.
        "x-codeSamples": codeSamples(op),
      },
    };
  }
  return paths;
}
