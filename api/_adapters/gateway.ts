/**
 * The gateway (decision: CDN-cached bodies), as Vercel Routing Middleware runs it: a web Request
 * in, a Response out. It passes every /v1 request through the same gate as the request core
 * (gate.ts), answers a preflight or a refusal itself, and forwards an admitted request without its
 * key to the internal path `/_c/<snapshotId>/<coding>/v1/...` (the coding it accepts, chosen here:
 * decision: codings behind the CDN), whose answer Vercel's CDN may cache; the caller's own headers
 * (request id, rate limit, CORS, Vary) are added to whatever comes back.
 *
 * Two ways to forward (GATEWAY_MODE): `rewrite` hands the internal URL back to the platform, which
 * serves it from its cache or the function; `fetch` requests it itself from a fixed origin, never
 * the host a request names (decision: gateway origin), and streams it back (one hop more,
 * certainly cached). Anything else at the internal prefix is a 404, except the gateway's own
 * fetch, which shows the secret.
 *
 * With markets (decision: markets, deployed per market) it routes by market, and answers `GET /markets`
 * itself from the bundled index (gateway-markets.ts).
 *
 * Every request the gate decides is counted here (decision: usage), cache hits included: an answer
 * the gateway sees by its outcome; one it hands on unseen (a rewrite, an MCP message) as `cdn`, with
 * a header by which the function settles it if the answer is its own.
 */
import { randomUUID } from "node:crypto";
import { next, rewrite } from "@vercel/functions";
import { addCallerHeaders } from "../_core/gate/caller-headers.js";
import { ServiceUnavailable, unknownEndpoint } from "../_core/respond/errors.js";
import type { CoreRequest, CoreResponse } from "../_core/exchange.js";
import { isEntitled, type RefusedKey } from "../_core/gate/access.js";
import type { Organization } from "../_core/gate/access-file.js";
import { callerOf, passGate, refusal, type GateOptions } from "../_core/gate/gate.js";
import {
  ENTITLED_MARKETS_HEADER,
  GATEWAY_TOKEN_HEADER,
  internalTarget,
  isApiTarget,
  isGatewayToken,
  isInternalTarget,
} from "../_core/gate/internal-path.js";
import { type RequestLog, requestLogger, type Served } from "../_core/log/log.js";
import { chooseCoding } from "../_core/respond/negotiate.js";
import { finishResponse } from "../_core/respond/respond.js";
import { isMcpTarget } from "../_core/endpoints/mcp-path.js";
import { withoutFragment } from "../_core/endpoints/request-target.js";
import { type Settlement, settlementHeader, USAGE_HEADER } from "../_core/usage/settlement.js";
import type { UsageRecorder } from "../_core/usage/usage-counter.js";
import { type Forward, forwardedHeaders, forwardRaw } from "./forward.js";
import {
  answerMarketsIndex,
  entitledMarketIds,
  type MarketForward,
  marketForward,
  type MarketRouted,
  routeAmongMarkets,
} from "./gateway-markets.js";
import type { MarketsIndex } from "../_core/format/layout/markets-index.js";

export type { Forward } from "./forward.js";

export const FORWARD_MODES = ["rewrite", "fetch"] as const;
export type ForwardMode = (typeof FORWARD_MODES)[number];

export interface GatewayOptions extends GateOptions {
  mode: ForwardMode;
  /** What the function's internal path answers to (gateway-secret.ts); undefined: the path is closed. */
  secret: string | undefined;
  /** Why there is no secret and how to fix it: the log line of every request answered 503 meanwhile. */
  secretProblem?: string;
  /** Where fetch mode sends the internal request (gateway-origin.ts); undefined: fetch mode forwards nothing, a 503. */
  origin?: string;
  /** Why there is no origin and how to fix it: the log line of every request fetch mode answers 503 meanwhile. */
  originProblem?: string;
  /** The snapshot the deployment serves; throws a SnapshotError when it cannot be read (a 503). */
  snapshotId: () => string;
  /**
   * The bundled markets' index when the deployment serves markets (decision: markets, deployed per
   * market), undefined when it serves one snapshot; throws a SnapshotError when it cannot be read.
   */
  markets?: () => MarketsIndex | undefined;
  /** The market `/v1` and `/mcp` serve in a deployment with markets (DEFAULT_MARKET). */
  defaultMarket?: string;
  forward?: Forward;
  onError?: (requestId: string, error: unknown) => void;
  /** One line per request the gateway decides, with the organization once the key is known. */
  onLog?: (entry: RequestLog) => void;
  /** Counts every request the gate decides (decision: usage). */
  usage?: UsageRecorder;
}

export type Gateway = (request: Request) => Response | Promise<Response>;

/**
 * The target as sent (path and query, still percent-encoded), without a fragment: a web Request's
 * URL keeps one a client sent, and the core drops it too (decision: fragments).
 */
function targetOf(url: string): string {
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  return pathStart === -1 ? "/" : withoutFragment(url.slice(pathStart));
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

/** One request in the gateway: what its log line says. */
interface Exchange {
  core: CoreRequest;
  requestId: string;
  started: bigint | undefined;
  /** Counted for usage once its answer is seen: it reached the gate. */
  counted?: boolean;
  /** Counted `cdn` and handed on unseen: the function settles it (usage/settlement.ts). */
  handedOff?: Settlement;
  /** Handed off, then answered by the gateway after all (the hand-off failed): settled here. */
  settles?: Settlement;
  /** Routed among markets (a deployment with markets): its market and what usage counts it as. */
  routed?: MarketRouted;
}

/** The bytes a streamed answer will carry, for its log line (none for HEAD, 204, 304). */
function bytesOf(method: string, answer: Response): number {
  if (method === "HEAD" || answer.status === 204 || answer.status === 304) return 0;
  return Number(answer.headers.get("content-length") ?? 0);
}

export function createGateway(options: GatewayOptions): Gateway {
  const forward = options.forward ?? forwardRaw;
  const log = requestLogger(options.onLog);

  function logged(x: Exchange, response: Response, line: Partial<Served>): Response {
    log?.write(x.started!, { requestId: x.requestId, method: x.core.method, url: x.core.url, ...line });
    if (x.counted && !x.handedOff && line.status !== undefined) {
      const { status, bytes = 0, organization } = line;
      const { url, market } = x.routed?.counted ?? { url: x.core.url, market: undefined };
      options.usage?.count({ url, market, status, bytes, organization, settles: x.settles });
    }
    return response;
  }

  /** An answer of the gateway's own (a preflight or a refusal), logged; `key`: a known key refused. */
  function answered(x: Exchange, answer: CoreResponse, organization?: string, key?: RefusedKey): Response {
    return logged(x, toWebResponse(answer), { status: answer.status, bytes: answer.body.length, organization, key });
  }

  async function forwardAdmitted(
    x: Exchange,
    request: Request,
    callerHeaders: Record<string, string>,
    organization: string,
    entitled: (market: string) => boolean,
  ) {
    // Without a secret nothing may reach the internal path: a 503, never an open path.
    if (!options.secret) throw new ServiceUnavailable(options.secretProblem ?? "no gateway secret");
    const { snapshotId, rest } = destinationOf(x);
    // MCP is a POST, answered as JSON by the function and never cached (decision: MCP).
    const mcp = isMcpTarget(rest);
    const coding = mcp ? "identity" : chooseCoding(request.headers.get("accept-encoding") ?? undefined);
    const target = internalTarget(snapshotId, coding, rest);
    const headers = forwardedHeaders(request, x.requestId, options.secret, mcp);
    // MCP's list_markets on the market's function says what this caller may use (never on what the CDN keeps).
    if (mcp && x.routed) headers.set(ENTITLED_MARKETS_HEADER, entitledMarketIds(x.routed, entitled));
    // An answer the gateway will not see, or whose tool it cannot name, is the function's to settle.
    if (options.usage && (options.mode === "rewrite" || mcp)) {
      x.handedOff = options.usage.handOff(rest, organization, x.routed?.counted.market);
      headers.set(USAGE_HEADER, settlementHeader(x.handedOff));
    }
    if (options.mode === "rewrite") {
      // A rewrite names the request's own URL: the platform serves it within this deployment.
      const rewritten = rewrite(new URL(target, request.url), { headers: callerHeaders, request: { headers } });
      return logged(x, rewritten, { organization, forwarded: "rewrite" });
    }
    // The secret goes only to the fixed origin: the request's URL is a client's to name.
    if (!options.origin)
      throw new ServiceUnavailable(options.originProblem ?? "no fixed origin for the gateway's fetch mode");
    const answer = await forward(new URL(target, options.origin), request.method, headers, mcp ? request.body : null);
    const merged = new Headers(answer.headers);
    for (const [name, value] of Object.entries(callerHeaders)) merged.set(name, value);
    const streamed = new Response(answer.body, { status: answer.status, headers: merged });
    const line = { status: answer.status, bytes: bytesOf(request.method, answer), organization, forwarded: "fetch" };
    return logged(x, streamed, line);
  }

  /** The snapshot id an admitted request is forwarded to, and its target within that snapshot. */
  function destinationOf(x: Exchange): MarketForward {
    if (x.routed) return marketForward(x.routed);
    return { snapshotId: options.snapshotId(), rest: x.core.url };
  }

  /** The request the gate reads: a preflight's path within its market (MCP's preflight differs). */
  function gatedRequest(x: Exchange): CoreRequest {
    const route = x.routed?.route;
    return route?.to === "market" && x.core.method === "OPTIONS" ? { ...x.core, url: route.rest } : x.core;
  }

  /** Whether the organization may use a market now: the gate's decision, for what a list says of each. */
  function entitledNow(organization: Organization): (market: string) => boolean {
    return (market) => isEntitled(organization, options.now(), market);
  }

  async function admitted(request: Request, x: Exchange): Promise<Response> {
    if (options.markets) x.routed = routeAmongMarkets(x.core.url, options.markets, options.defaultMarket);
    // With markets, the entitlement is the market's, decided before anything is forwarded.
    const outcome = await passGate(gatedRequest(x), x.requestId, options, x.routed?.market);
    if (!outcome.admitted) {
      if (outcome.answer.status >= 500) options.onError?.(x.requestId, outcome.thrown);
      return answered(x, outcome.answer, outcome.organization, outcome.key);
    }
    try {
      // The platform resolves dot segments before the gateway sees the URL (/v1/%2e%2e/x is /x):
      // what is no API path then is the API's unknown-path 404, answered here, after the checks.
      if (!x.routed && !isApiTarget(x.core.url)) throw unknownEndpoint();
      const entitled = entitledNow(outcome.entitlements);
      if (x.routed?.route.to === "list") {
        const outgoing = answerMarketsIndex(x.routed, x.core, options.defaultMarket, entitled);
        addCallerHeaders(outgoing.headers, outcome.caller);
        return answered(x, finishResponse(x.core.method, x.requestId, outgoing), outcome.organization);
      }
      return await forwardAdmitted(x, request, addCallerHeaders({}, outcome.caller), outcome.organization, entitled);
    } catch (thrown) {
      const answer = refusal(x.core.method, thrown, outcome.caller);
      if (answer.status >= 500) options.onError?.(x.requestId, thrown);
      // A hand-off that failed is the gateway's answer: settled here, as the function would have.
      [x.settles, x.handedOff] = [x.handedOff, undefined];
      return answered(x, answer, outcome.organization);
    }
  }

  return (request) => {
    const core = coreRequestOf(request);
    if (isInternalTarget(core.url)) {
      // The gateway's own fetch coming back through it: the rest of a request already logged.
      if (isGatewayToken(request.headers.get(GATEWAY_TOKEN_HEADER) ?? undefined, options.secret)) return next();
      const x = { core, requestId: randomUUID(), started: log?.start() };
      return answered(x, refusal(core.method, unknownEndpoint(), callerOf(core, x.requestId, options.corsOrigins)));
    }
    return admitted(request, { core, requestId: randomUUID(), started: log?.start(), counted: true });
  };
}
