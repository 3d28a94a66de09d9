/**
 * HTTP checks run against a served function (`npm run verify:vercel`): statuses of spec 4.8 with
 * their codes, paging through every list, conditional and compressed responses, each body and
 * its headers validated against the OpenAPI document that would be deployed beside it.
 */
import { createHash } from "node:crypto";
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { GATEWAY_TOKEN_HEADER } from "../../api/_core/gate/internal-path.js";
import type { ResponseValidator } from "../../build/openapi/validate.js";

/** The plain keys whose hashes are in data/demo-access.json. */
export const DEMO_KEYS = { valid: "cl_demo_3f9a1c7e5b2d4086a1e7c9b3", lapsed: "cl_demo_lapsed_8d2e6b1f0a4c7395" };

type ListResource = "showtimes" | "cinemas" | "films" | "attributes";

export interface HttpCheckContext {
  baseUrl: string;
  keys: { valid: string; lapsed: string };
  /** Records per list in the bundled snapshot (its manifest). */
  counts: Record<ListResource, number>;
  validator: ResponseValidator;
  errorSchema: Record<string, unknown>;
  /** The deployment's access text (ACCESS_JSON): whatever can be computed from it must open nothing. */
  accessText: string;
  /** The secret the build bundled (decision: gateway secret). */
  bundledSecret: string;
}

export interface HttpCheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
  json(): any;
}

/**
 * One request over node:http, which leaves the body as sent (fetch would decompress it); the
 * target goes out exactly as written (a URL would resolve its dot segments first).
 */
export function send(
  baseUrl: string,
  path: string,
  options: { method?: string; key?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const headers = { ...options.headers, ...(options.key ? { authorization: `Bearer ${options.key}` } : {}) };
  const { hostname, port } = new URL(baseUrl);
  const target = { host: hostname, port, path, method: options.method ?? "GET", headers, agent: false };
  return new Promise((resolve, reject) => {
    const req = request(target, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode!,
          headers: res.headers as Record<string, string>,
          body,
          json: () => JSON.parse(body.toString("utf8")),
        });
      });
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const OPERATION: Record<ListResource, string> = {
  showtimes: "listShowtimes",
  cinemas: "listCinemas",
  films: "listFilms",
  attributes: "listAttributes",
};

/** Asserts status, documented body and always-sent headers. */
export function expectDocumented(ctx: HttpCheckContext, answer: Answer, operationId: string, status: number): any {
  assert(
    answer.status === status,
    `${operationId}: expected ${status}, got ${answer.status}: ${answer.body.toString().slice(0, 200)}`,
  );
  const body = answer.body.length ? answer.json() : undefined;
  const problems = [
    ...ctx.validator.checkBody(operationId, status, body),
    ...ctx.validator.checkHeaders(operationId, status, answer.headers),
  ];
  assert(problems.length === 0, problems.join("; "));
  return body;
}

/** Asserts an error envelope with its code, the request id echoed in the header. */
function expectError(ctx: HttpCheckContext, answer: Answer, status: number, code: string, operationId?: string): any {
  const body = operationId ? expectDocumented(ctx, answer, operationId, status) : answer.json();
  assert(
    answer.status === status && body.error?.code === code,
    `expected ${status} ${code}, got ${answer.status} ${body.error?.code}`,
  );
  assert(ctx.validator.checkValue(ctx.errorSchema, body).length === 0, "the body is not the error envelope");
  assert(body.error.requestId === answer.headers["x-request-id"], "error.requestId differs from X-Request-Id");
  return body;
}

export type Check = [name: string, run: (ctx: HttpCheckContext) => Promise<string>];

export const HTTP_CHECKS: Check[] = [
  [
    "GET /healthz without a key: 200 with the snapshot id",
    async (ctx) => {
      const answer = await send(ctx.baseUrl, "/healthz");
      assert(answer.status === 200, `expected 200, got ${answer.status}: ${answer.body.toString().slice(0, 200)}`);
      const body = answer.json();
      assert(body.status === "ok" && /^[0-9a-f]{32}$/.test(body.snapshotId), `unexpected body ${answer.body}`);
      return `snapshot ${body.snapshotId}`;
    },
  ],
  [
    "every list pages through all its records, each page as documented",
    async (ctx) => {
      const seen: string[] = [];
      for (const resource of Object.keys(OPERATION) as ListResource[]) {
        let path: string | null = `/v1/${resource}?limit=100`;
        let records = 0;
        while (path) {
          const page = expectDocumented(
            ctx,
            await send(ctx.baseUrl, path, { key: ctx.keys.valid }),
            OPERATION[resource],
            200,
          );
          records += page.data.length;
          path = page.pagination.nextCursor ? `/v1/${resource}?limit=100&cursor=${page.pagination.nextCursor}` : null;
        }
        assert(
          records === ctx.counts[resource],
          `${resource}: ${records} records served, the snapshot has ${ctx.counts[resource]}`,
        );
        seen.push(`${records} ${resource}`);
      }
      return seen.join(", ");
    },
  ],
  [
    "the first page at the default limit (precomputed bytes)",
    async (ctx) => {
      const page = expectDocumented(
        ctx,
        await send(ctx.baseUrl, "/v1/showtimes", { key: ctx.keys.valid }),
        "listShowtimes",
        200,
      );
      return `${page.data.length} showtimes, hasMore ${page.pagination.hasMore}`;
    },
  ],
  [
    "get a cinema and a film by id",
    async (ctx) => {
      const cinemas = (await send(ctx.baseUrl, "/v1/cinemas?limit=1", { key: ctx.keys.valid })).json();
      const films = (await send(ctx.baseUrl, "/v1/films?limit=1", { key: ctx.keys.valid })).json();
      const cinema = expectDocumented(
        ctx,
        await send(ctx.baseUrl, `/v1/cinemas/${encodeURIComponent(cinemas.data[0].id)}`, { key: ctx.keys.valid }),
        "getCinema",
        200,
      );
      const film = expectDocumented(
        ctx,
        await send(ctx.baseUrl, `/v1/films/${encodeURIComponent(films.data[0].id)}`, { key: ctx.keys.valid }),
        "getFilm",
        200,
      );
      assert(
        cinema.data.id === cinemas.data[0].id && film.data.id === films.data[0].id,
        "get-one returned another record",
      );
      return `${cinema.data.id}, ${film.data.id}`;
    },
  ],
  [
    "If-None-Match with the ETag gives 304",
    async (ctx) => {
      const first = await send(ctx.baseUrl, "/v1/attributes", { key: ctx.keys.valid });
      const again = await send(ctx.baseUrl, "/v1/attributes", {
        key: ctx.keys.valid,
        headers: { "if-none-match": first.headers.etag! },
      });
      expectDocumented(ctx, again, "listAttributes", 304);
      return `ETag ${first.headers.etag}`;
    },
  ],
  [
    "gzip when accepted, the same JSON once decompressed",
    async (ctx) => {
      const plain = await send(ctx.baseUrl, "/v1/films", { key: ctx.keys.valid });
      const zipped = await send(ctx.baseUrl, "/v1/films", {
        key: ctx.keys.valid,
        headers: { "accept-encoding": "gzip" },
      });
      assert(zipped.headers["content-encoding"] === "gzip", `content-encoding ${zipped.headers["content-encoding"]}`);
      assert(gunzipSync(zipped.body).equals(plain.body), "the gzip body differs from the identity body");
      return `${zipped.body.length} of ${plain.body.length} bytes`;
    },
  ],
  [
    "each client gets the coding it accepts, whichever coding a cache saw first",
    async (ctx) => {
      // The order matters: a cache keyed without the coding would hand the first one to the rest.
      const codings: Array<[string, string | undefined]> = [
        ["gzip, br", "gzip"],
        ["", undefined],
        ["br", "br"],
        ["identity", undefined],
        ["gzip;q=0, br;q=1", "br"],
      ];
      for (const path of ["/v1/cinemas", "/v1/showtimes?limit=30"]) {
        const bodies = new Set<string>();
        for (const [acceptEncoding, expected] of codings) {
          const headers = acceptEncoding ? { "accept-encoding": acceptEncoding } : undefined;
          const answer = await send(ctx.baseUrl, path, { key: ctx.keys.valid, headers });
          const coding = answer.headers["content-encoding"];
          assert(coding === expected, `${path}, Accept-Encoding ${JSON.stringify(acceptEncoding)}: ${coding}`);
          const decoded =
            coding === "gzip"
              ? gunzipSync(answer.body)
              : coding === "br"
                ? brotliDecompressSync(answer.body)
                : answer.body;
          bodies.add(decoded.toString("utf8"));
        }
        assert(bodies.size === 1, `${path}: the codings decode to ${bodies.size} different bodies`);
      }
      return `${codings.length} codings, 2 paths`;
    },
  ],
  [
    "what a caller sends to skip a cache changes nothing: Pragma, Range, Cache-Control, the _vercel_no_cache cookie",
    async (ctx) => {
      const plain = await send(ctx.baseUrl, "/v1/attributes?limit=5", { key: ctx.keys.valid });
      const busting: Array<Record<string, string>> = [
        { pragma: "no-cache" },
        { range: "bytes=0-9" },
        { "cache-control": "no-cache" },
        { cookie: "_vercel_no_cache=1" },
      ];
      for (const headers of busting) {
        const answer = await send(ctx.baseUrl, "/v1/attributes?limit=5", { key: ctx.keys.valid, headers });
        assert(answer.status === 200 && answer.body.equals(plain.body), `${JSON.stringify(headers)}: ${answer.status}`);
      }
      // Nothing meant for the platform or the function reaches the caller.
      const leaked = Object.keys(plain.headers).filter(
        (n) => n.startsWith("x-middleware-") || n === GATEWAY_TOKEN_HEADER,
      );
      assert(leaked.length === 0, `sent to the caller: ${leaked.join(", ")}`);
      return "4 headers, the same 200";
    },
  ],
  [
    "HEAD: the GET's status and headers, no body",
    async (ctx) => {
      const head = await send(ctx.baseUrl, "/v1/cinemas", { method: "HEAD", key: ctx.keys.valid });
      assert(
        head.status === 200 && head.body.length === 0 && head.headers.etag,
        `HEAD gave ${head.status} with ${head.body.length} bytes`,
      );
      return "200, empty";
    },
  ],
  [
    "400 names the bad parameter",
    async (ctx) => {
      const body = expectError(
        ctx,
        await send(ctx.baseUrl, "/v1/showtimes?limit=0", { key: ctx.keys.valid }),
        400,
        "bad_request",
        "listShowtimes",
      );
      assert(body.error.details?.parameter === "limit", "details.parameter is not limit");
      return body.error.message;
    },
  ],
  [
    "401 without a key and with an unknown key",
    async (ctx) => {
      expectError(ctx, await send(ctx.baseUrl, "/v1/films"), 401, "unauthorized", "listFilms");
      const body = expectError(
        ctx,
        await send(ctx.baseUrl, "/v1/films", { key: "cl_not_a_key" }),
        401,
        "unauthorized",
        "listFilms",
      );
      return body.error.message;
    },
  ],
  [
    "403 for an organization without an active paid entitlement",
    async (ctx) =>
      expectError(
        ctx,
        await send(ctx.baseUrl, "/v1/cinemas", { key: ctx.keys.lapsed }),
        403,
        "entitlement_required",
        "listCinemas",
      ).error.message,
  ],
  [
    "404 for an unknown film and an unknown path",
    async (ctx) => {
      expectError(
        ctx,
        await send(ctx.baseUrl, "/v1/films/no-such-film", { key: ctx.keys.valid }),
        404,
        "not_found",
        "getFilm",
      );
      expectError(ctx, await send(ctx.baseUrl, "/v1/nope", { key: ctx.keys.valid }), 404, "not_found");
      return "not_found twice";
    },
  ],
  [
    "a 200 carries the caller's headers and nothing meant for the CDN",
    async (ctx) => {
      const answer = await send(ctx.baseUrl, "/v1/films?limit=2", { key: ctx.keys.valid });
      const h = answer.headers;
      assert(answer.status === 200, `expected 200, got ${answer.status}`);
      assert(/^[0-9a-f-]{36}$/.test(h["x-request-id"] ?? ""), `X-Request-Id ${h["x-request-id"]}`);
      assert(h.ratelimit && h["ratelimit-policy"], "no RateLimit fields");
      assert(h.vary === "Authorization, Accept-Encoding", `Vary: ${h.vary}`);
      assert(h["cache-control"] === "private, max-age=60", `Cache-Control: ${h["cache-control"]}`);
      assert(h["vercel-cdn-cache-control"] === undefined, "Vercel-CDN-Cache-Control reached the client");
      return `${h.ratelimit}`;
    },
  ],
  [
    "the internal prefix is a 404 to anyone but the gateway, with a key, without, or with a derivable secret",
    async (ctx) => {
      const health = (await send(ctx.baseUrl, "/healthz")).json();
      // What the secret once was: derived from the access text, so computable by anyone who has it.
      const derived = createHash("sha256").update(`cinema-listings gateway\n${ctx.accessText}`, "utf8").digest("hex");
      const internal = `/_c/${health.snapshotId}/gzip/v1/films`;
      const attempts: Array<[string, Record<string, string>, string | undefined]> = [
        [internal, {}, ctx.keys.valid],
        [internal, {}, undefined],
        [`/_c/${health.snapshotId}/v1/films`, {}, ctx.keys.valid],
        ["/_c", {}, undefined],
        [internal, { [GATEWAY_TOKEN_HEADER]: derived }, undefined],
        [internal, { [GATEWAY_TOKEN_HEADER]: derived }, ctx.keys.valid],
      ];
      for (const [path, headers, key] of attempts) {
        const body = expectError(ctx, await send(ctx.baseUrl, path, { key, headers }), 404, "not_found");
        assert(body.error.message.startsWith("No such endpoint"), body.error.message);
      }
      return `404 ${attempts.length} times`;
    },
  ],
  [
    "one request id per request, in the header and the body, when the platform resolves dot segments",
    async (ctx) => {
      for (const path of ["/v1/%2e%2e/%2e%2e/%2e%2e/healthz", "/v1/%2e%2e/films", "/v1/films/%2e%2e"])
        expectError(ctx, await send(ctx.baseUrl, path, { key: ctx.keys.valid }), 404, "not_found");
      return "3 paths";
    },
  ],
  [
    "a fragment in the target is dropped, as the local server drops it; an encoded # is part of an id",
    async (ctx) => {
      const key = ctx.keys.valid;
      const film = encodeURIComponent((await send(ctx.baseUrl, "/v1/films?limit=1", { key })).json().data[0].id);
      const pairs: Array<[string, string]> = [
        ["/v1/films?limit=2#x", "/v1/films?limit=2"],
        [`/v1/films/${film}#`, `/v1/films/${film}`],
      ];
      for (const [target, without] of pairs) {
        const [answer, expected] = [
          await send(ctx.baseUrl, target, { key }),
          await send(ctx.baseUrl, without, { key }),
        ];
        const same = answer.status === 200 && answer.body.equals(expected.body);
        assert(same, `${target}: ${answer.status}, not the answer to ${without}`);
      }
      const body = expectError(
        ctx,
        await send(ctx.baseUrl, "/v1/films/no%23such", { key }),
        404,
        "not_found",
        "getFilm",
      );
      assert(body.error.message.includes('"no#such"'), `the 404 names another id: ${body.error.message}`);
      return "2 targets, and no%23such a 404 for no#such";
    },
  ],
  [
    "405 for POST, with Allow",
    async (ctx) => {
      const answer = await send(ctx.baseUrl, "/v1/showtimes", { method: "POST", key: ctx.keys.valid });
      expectError(ctx, answer, 405, "bad_request");
      assert(answer.headers.allow === "GET, HEAD", `Allow: ${answer.headers.allow}`);
      return "Allow: GET, HEAD";
    },
  ],
];

/** The check for a deployment whose snapshot is missing: a documented 503, not a crash. */
export const UNAVAILABLE_CHECK: Check = [
  "503 database_unavailable when the snapshot is missing",
  async (ctx) =>
    expectError(
      ctx,
      await send(ctx.baseUrl, "/v1/showtimes", { key: ctx.keys.valid }),
      503,
      "database_unavailable",
      "listShowtimes",
    ).error.message,
];

/** The checks for a deployment without a usable secret: closed, never open. */
export const CLOSED_CHECK: Check = [
  "without a usable secret: an admitted request is a 503, the internal prefix a 404 even with the bundled secret",
  async (ctx) => {
    const admitted = expectError(
      ctx,
      await send(ctx.baseUrl, "/v1/films", { key: ctx.keys.valid }),
      503,
      "database_unavailable",
      "listFilms",
    );
    const health = (await send(ctx.baseUrl, "/healthz")).json();
    const internal = await send(ctx.baseUrl, `/_c/${health.snapshotId}/identity/v1/films`, {
      headers: { [GATEWAY_TOKEN_HEADER]: ctx.bundledSecret },
    });
    expectError(ctx, internal, 404, "not_found");
    return admitted.error.message;
  },
];

/** Runs checks in order, collecting every result rather than stopping at the first failure. */
export async function runHttpChecks(ctx: HttpCheckContext, checks: Check[] = HTTP_CHECKS): Promise<HttpCheckResult[]> {
  const results: HttpCheckResult[] = [];
  for (const [name, run] of checks) {
    try {
      results.push({ name, ok: true, detail: await run(ctx) });
    } catch (error) {
      results.push({ name, ok: false, detail: (error as Error).message });
    }
  }
  return results;
}
