/**
 * An MCP client as assistants run one: the SDK's own Client over its Streamable HTTP transport,
 * with the key in the Authorization header (decision: MCP), and raw POSTs for what a client
 * library never sends (a batch, a body too large, the wrong media type).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export const ACCEPT_BOTH = "application/json, text/event-stream";

/** A client connected (initialized) to `baseUrl`/mcp with `key`; close it after. */
export async function connectMcp(
  baseUrl: string,
  key?: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), { requestInit: { headers } });
  const client = new Client({ name: "cinema-listings-tests", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  json(): any;
}

/** One POST to /mcp as given (a JSON-RPC message, or any bytes). */
export async function postMcp(
  baseUrl: string,
  body: unknown,
  options: { key?: string; headers?: Record<string, string>; method?: string } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: ACCEPT_BOTH,
    ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
    ...options.headers,
  };
  const method = options.method ?? "POST";
  const sent = method === "POST" ? (typeof body === "string" ? body : JSON.stringify(body)) : undefined;
  const response = await fetch(new URL("/mcp", baseUrl), { method, headers, body: sent });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** A JSON-RPC request message. */
export function rpc(method: string, params: Record<string, unknown> = {}, id = 1) {
  return { jsonrpc: "2.0", id, method, params };
}
