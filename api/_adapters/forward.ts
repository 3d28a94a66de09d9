/**
 * How the gateway hands an admitted request on (decision: CDN-cached bodies): the few headers the
 * internal request carries, and, in `fetch` mode, the request itself over node:http(s).
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { GATEWAY_TOKEN_HEADER } from "../_core/gate/internal-path.js";

/**
 * Forwards the internal request (with its body: an MCP POST's) and gives back the answer's bytes
 * untouched (fetch would decode them).
 */
export type Forward = (
  url: URL,
  method: string,
  headers: Headers,
  body?: ReadableStream<Uint8Array> | null,
) => Promise<Response>;

/**
 * The client's headers the internal request keeps: what the function reads (its URL names the
 * coding; Accept-Encoding serves only should the platform keep the client's path). Everything else
 * goes, above all what would keep the answer out of Vercel's CDN (decision: what the CDN keeps):
 * Authorization, Range, Pragma, the _vercel_no_cache cookie.
 */
const FORWARDED = ["accept-encoding", "if-none-match"] as const;
/** What the MCP endpoint reads besides (decision: MCP): its body's type, what the client accepts, the
 * protocol revision. */
const FORWARDED_MCP = ["content-type", "content-length", "accept", "mcp-protocol-version"] as const;

/** The internal request's headers: the few the function reads, the request id and the secret. */
export function forwardedHeaders(request: Request, requestId: string, secret: string, mcp = false): Headers {
  const headers = new Headers();
  for (const name of mcp ? FORWARDED_MCP : FORWARDED) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  headers.set("x-request-id", requestId);
  headers.set(GATEWAY_TOKEN_HEADER, secret);
  return headers;
}

/** Forward over node:http(s), which leaves a compressed body as it is. */
export const forwardRaw: Forward = (url, method, headers, body) =>
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
    // The body streams through as it arrives: the function bounds it (a 413 past its bound).
    if (body) Readable.fromWeb(body).pipe(outgoing);
    else outgoing.end();
  });
