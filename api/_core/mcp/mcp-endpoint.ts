/**
 * The MCP endpoint (decision: MCP): one JSON-RPC message per POST, answered by the official SDK's
 * Streamable HTTP transport, stateless (a transport and a server per request, no session) and with
 * plain JSON responses. The request has passed the gate already; this module is loaded on the
 * first request for /mcp (endpoints/mcp-route.ts), never for /v1.
 */
import type { CoreRequest } from "../exchange.js";
import type { Outgoing } from "../respond/respond.js";
import { createMcpServer, type ToolContext } from "./mcp-server.js";
import { loadSdk } from "./sdk.js";

/** What the core hands the endpoint: the request as received, and how a tool asks the API. */
export interface McpExchange extends ToolContext {
  method: string;
  headers: CoreRequest["headers"];
  readBody: CoreRequest["readBody"];
}

export interface McpAnswer {
  outgoing: Outgoing;
  /** The tool a tools/call named, for the request's log line. */
  tool?: string;
}

/**
 * The largest body taken (decision: MCP): a tools/call with every argument at its bound (a 4,096
 * character cursor, 100 characters of q, 32 attribute ids of 160) is under 10 kB; initialize
 * carries the client's name and capabilities.
 */
export const MAX_BODY_BYTES = 64 * 1024;

/** The headers the SDK reads; nothing else of the request (its key above all) reaches it. */
const SDK_HEADERS = ["accept", "content-type", "mcp-protocol-version"] as const;

/** A JSON-RPC error without an id, as the SDK's transport answers what it refuses before reading a message. */
function protocolError(status: number, code: number, message: string, headers: Record<string, string> = {}): Outgoing {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
  return { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers }, body };
}

/** Stateless: no stream to open with GET, no session to end with DELETE. */
function methodNotAllowed(): Outgoing {
  return protocolError(405, -32000, "Method not allowed: send each JSON-RPC message with POST.", { allow: "POST" });
}

/** Whether the body is a JSON array (a batch): its first byte other than JSON whitespace is `[`. */
function isBatch(body: Buffer): boolean {
  for (const byte of body) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return byte === 0x5b;
  return false;
}

/** The SDK's answer as the core's: bytes and the few headers it sets, never cached. */
async function toOutgoing(response: Response): Promise<Outgoing> {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  for (const name of ["content-type", "allow"]) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** The headers the SDK is shown. */
function sdkHeaders(received: CoreRequest["headers"]): Headers {
  const headers = new Headers();
  for (const name of SDK_HEADERS) {
    const value = received[name];
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

/** Hands one message to a fresh server and transport, and gives back the transport's answer. */
async function answerMessage(exchange: McpExchange, body: Buffer): Promise<McpAnswer> {
  let tool: string | undefined;
  const sdk = await loadSdk();
  const server = createMcpServer(sdk, exchange, (name) => {
    tool = name;
  });
  const transport = new sdk.Transport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await server.connect(transport);
  try {
    // The URL is the SDK's to read (requestInfo); the body was bounded above.
    const request = new Request("http://localhost/mcp", {
      method: "POST",
      headers: sdkHeaders(exchange.headers),
      body: new Uint8Array(body),
    });
    return { outgoing: await toOutgoing(await transport.handleRequest(request)), tool };
  } finally {
    await server.close();
  }
}

/** Answers an admitted request for /mcp: 405 but for POST, 413 past the bound, 400 for a batch, else the SDK's answer. */
export async function answerMcpRequest(exchange: McpExchange): Promise<McpAnswer> {
  if (exchange.method !== "POST") return { outgoing: methodNotAllowed() };
  const body = exchange.readBody ? await exchange.readBody(MAX_BODY_BYTES) : Buffer.alloc(0);
  if (body === undefined)
    return {
      outgoing: protocolError(413, -32000, `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`),
    };
  // The current protocol revision has no batches; one message per request also bounds the answer.
  if (isBatch(body))
    return {
      outgoing: protocolError(400, -32600, "Invalid Request: batches are not supported; send one message per request"),
    };
  return answerMessage(exchange, body);
}
