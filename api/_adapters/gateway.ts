/**
 * The gateway (decision: CDN-cached bodies), as Vercel Routing Middleware runs it: a web Request
 * in, a Response out. It passes every /v1 request through the same gate as the request core
 * (gate.ts), answers a preflight or a refusal itself, and forwards an admitted request without its
 * key to the internal path `/_c/<snapshotId>/<coding>/v1/...` (the coding it accepts, chosen here:
 * decision: codings behind the CDN), whose answer Vercel's CDN may cache; the caller's own headers
 * (request id, rate limit, CORS, Vary) are added to whatever comes back.
 *
 * Two ways to forward (GATEWAY_MODE): `rewrite` hands the internal URL back to the platform, which
 * serves it from its cache or the function; `fetch` requests it itself and streams it back (one
 * hop more, certainly cached). Anything else at the internal prefix is a 404, except the gateway's
 * own fetch, which shows the secret.
 */
import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { next, rewrite } from "@vercel/functions";
import { addCallerHeaders } from "../_core/caller-headers.js";
import { ServiceUnavailable, unknownEndpoint } from "../_core/errors.js";
import type { CoreRequest, CoreResponse } from "../_core/exchange.js";
import { chooseCoding } from "../_core/negotiate.js";
import { callerOf, passGate, refusal, type GateOptions } from "../_core/gate.js";
import {
  GATEWAY_TOKEN_HEADER,
  internalTarget,
  isApiTarget,
  isGatewayToken,
  isInternalTarget,
} from "../_core/internal-path.js";

export const FORWARD_MODES = ["rewrite", "fetch"] as const;
export type ForwardMode = (typeof FORWARD_MODES)[number];

/** Forwards the internal request and gives back the answer's bytes untouched (fetch would decode them). */
export type Forward = (url: URL, method: string, headers: Headers) => Promise<Response>;

export interface GatewayOptions extends GateOptions {
  mode: ForwardMode;
  /** What the function's internal path answers to (gateway-secret.ts); undefined: the path is closed. */
  secret: string | undefined;
  /** Why there is no secret and how to fix it: the log line of every request answered 503 meanwhile. */
  secretProblem?: string;
  /** The snapshot the deployment serves; throws a SnapshotError when it cannot be read (a 503). */
  snapshotId: () => string;
  forward?: Forward;
  onError?: (requestId: string, error: unknown) => void;
}

export type Gateway = (request: Request) => Response | Promise<Response>;

/** The target as sent (path and query, still percent-encoded). */
function targetOf(url: string): string {
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  return pathStart === -1 ? "/" : url.slice(pathStart);
}

/**
 * The request as the core sees it. The platform joins repeated fields with ", ", and a key never
 * holds a comma, so a joined Authorization is split again: two keys are a 401 here as in the core.
 */
function coreRequestOf(request: Request): CoreRequest {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of request.headers) headers[name] = value;
  const authorization = headers.authorization;
  if (typeof authorization === "string" && authorization.includes(","))
    headers.authorization = authorization.split(",").map((value) => value.trim());
  return { method: request.method, url: targetOf(request.url), headers };
}

export function toWebResponse(response: CoreResponse): Response {
  const body = response.body.length === 0 ? null : new Uint8Array(response.body);
  return new Response(body, { status: response.status, headers: response.headers });
}

/**
 * The client's headers the internal request keeps: what the function reads (its URL names the
 * coding; Accept-Encoding serves only should the platform keep the client's path). Everything else
 * goes, above all what would keep the answer out of Vercel's CDN (decision: what the CDN keeps):
 * Authorization, Range, Pragma, the _vercel_no_cache cookie.
 */
const FORWARDED = ["accept-encoding", "if-none-match"] as const;

/** The internal request's headers: the few the function reads, the request id and the secret. */
function forwardedHeaders(request: Request, requestId: string, secret: string): Headers {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  headers.set("x-request-id", requestId);
  headers.set(GATEWAY_TOKEN_HEADER, secret);
  return headers;
}

/** Forward over node:http(s), which leaves a compressed body as it is. */
export const forwardRaw: Forward = (url, method, headers) =>
  new Promise((resolve, reject) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const outgoing = send(url, { method, headers: Object.fromEntries(headers) }, (incoming) => {
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(incoming.headers))
        if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
      const status = incoming.statusCode ?? 502;
      const empty = method === "HEAD" || status === 204 || status === 304;
      if (empty) incoming.resume();
      const body = empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
      resolve(new Response(body, { status, headers: responseHeaders }));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });

export function createGateway(options: GatewayOptions): Gateway {
  const forward = options.forward ?? forwardRaw;

  async function forwardAdmitted(request: Request, core: CoreRequest, callerHeaders: Record<string, string>) {
    // Without a secret nothing may reach the internal path: a 503, never an open path.
    if (!options.secret) throw new ServiceUnavailable(options.secretProblem ?? "no gateway secret");
    const coding = chooseCoding(request.headers.get("accept-encoding") ?? undefined);
    const url = new URL(internalTarget(options.snapshotId(), coding, core.url), request.url);
    const headers = forwardedHeaders(request, callerHeaders["x-request-id"]!, options.secret);
    if (options.mode === "rewrite") return rewrite(url, { headers: callerHeaders, request: { headers } });
    const answer = await forward(url, request.method, headers);
    const merged = new Headers(answer.headers);
    for (const [name, value] of Object.entries(callerHeaders)) merged.set(name, value);
    return new Response(answer.body, { status: answer.status, headers: merged });
  }

  async function admitted(request: Request, core: CoreRequest, requestId: string): Promise<Response> {
    const outcome = await passGate(core, requestId, options);
    if (!outcome.admitted) {
      if (outcome.answer.status >= 500) options.onError?.(requestId, outcome.thrown);
      return toWebResponse(outcome.answer);
    }
    try {
      // The platform resolves dot segments before the gateway sees the URL (/v1/%2e%2e/x is /x):
      // what is no API path then is the API's unknown-path 404, answered here, after the checks.
      if (!isApiTarget(core.url)) throw unknownEndpoint();
      return await forwardAdmitted(request, core, addCallerHeaders({}, outcome.caller));
    } catch (thrown) {
      const answer = refusal(core.method, thrown, outcome.caller);
      if (answer.status >= 500) options.onError?.(requestId, thrown);
      return toWebResponse(answer);
    }
  }

  return (request) => {
    const core = coreRequestOf(request);
    const requestId = randomUUID();
    if (isInternalTarget(core.url)) {
      if (isGatewayToken(request.headers.get(GATEWAY_TOKEN_HEADER) ?? undefined, options.secret)) return next();
      return toWebResponse(refusal(core.method, unknownEndpoint(), callerOf(core, requestId, options.corsOrigins)));
    }
    return admitted(request, core, requestId);
  };
}
