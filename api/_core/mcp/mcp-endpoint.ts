/**
 * The MCP endpoint (decision: MCP): one JSON-RPC message per POST, stateless (a server and a
 * transport per request, no session), answered as plain JSON by the official SDK's Server over a
 * transport of ours (post-transport.ts). The request has passed the gate already; this module is
 * loaded on the first request for /mcp (endpoints/mcp-route.ts), never for /v1.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { CoreRequest } from "../exchange.js";
import type { PagePool } from "../format/primitives/page-buffer.js";
import type { Outgoing } from "../respond/respond.js";
import { createMcpServer, type ToolContext } from "./mcp-server.js";
import { callTool } from "./call-tool.js";
import {
  jsonHeaders,
  PostTransport,
  protocolError,
  refusedHeaders,
  refusedMessage,
  refusedVersion,
  serializeAnswer,
} from "./post-transport.js";
import { TOOLS_BY_NAME } from "./tools.js";
import { clipText } from "../respond/text.js";
import { loadSdk, type Sdk } from "./sdk.js";
import { instructionsOf, type ListingsFacts } from "./instructions.js";

/** What the core hands the endpoint: the request as received, and how a tool asks the API. */
export interface McpExchange extends Omit<ToolContext, "keepStructured"> {
  method: string;
  headers: CoreRequest["headers"];
  readBody: CoreRequest["readBody"];
  /** The request's clock (injected: tests fix it), for today's date in the instructions. */
  now(): Date;
  /** The first and last local date the snapshot in service has showtimes on; throws when it cannot be read. */
  dates(): ListingsFacts["dates"];
  /** The buffers the core's composed pages are written into: an answer is written into one (serializeAnswer). */
  pages: PagePool;
}

/** Whether the server has `tool`, taking `argument` when one is named. */
function offered(tool: string, argument?: string): boolean {
  const schema = TOOLS_BY_NAME.get(tool)?.target.inputSchema as { properties?: object } | undefined;
  return schema !== undefined && (argument === undefined || Object.hasOwn(schema.properties ?? {}, argument));
}

/** The instructions an initialize answers, from the request's clock and the snapshot in service. */
function instructionsFor(exchange: McpExchange): string {
  const read = <T>(of: () => T): T | undefined => {
    try {
      return of();
    } catch {
      // A snapshot that cannot be read: the instructions leave out what it would have said.
      return undefined;
    }
  };
  const { zoneOffset } = exchange;
  const facts = {
    now: exchange.now(),
    zones: read(() => zoneOffset.zones?.()),
    zoneOffset,
    dates: read(exchange.dates),
  };
  return instructionsOf(facts, offered);
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

/** Stateless: no stream to open with GET, no session to end with DELETE. */
function methodNotAllowed(): Outgoing {
  return protocolError(405, -32000, "Method not allowed: send each JSON-RPC message with POST.", { allow: "POST" });
}

/** Whether the body is a JSON array (a batch): its first byte other than JSON whitespace is `[`. */
function isBatch(body: Buffer): boolean {
  for (const byte of body) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return byte === 0x5b;
  return false;
}

/** The body as JSON; undefined when it does not parse. */
function parsedJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Hands one message to a fresh server and transport. Nothing is closed after: without a session or
 * a stream, a request's server and transport hold nothing once it is answered, and go with it.
 */
async function answerMessage(sdk: Sdk, exchange: McpExchange, message: JSONRPCMessage): Promise<McpAnswer> {
  let tool: string | undefined;
  const transport = new PostTransport(exchange.pages);
  const context: ToolContext = {
    ...exchange,
    keepStructured: (json) => {
      transport.structured = json;
    },
  };
  const isInitialize = "method" in message && message.method === "initialize";
  const server = createMcpServer(
    sdk,
    context,
    (name) => {
      tool = name;
    },
    isInitialize ? instructionsFor(exchange) : undefined,
  );
  await server.connect(transport);
  return { outgoing: await transport.deliver(message), tool };
}

/** A tools/call in the shape every client sends, which the endpoint answers itself (answerToolCall). */
interface PlainToolCall {
  id: string | number;
  name: string;
  args: Record<string, unknown>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A tools/call request whose params are not `{name, arguments?}`: the id to answer and what is wrong. */
interface MalformedToolCall {
  id: string | number;
  invalid: string;
}

/**
 * The message as a plain tools/call, a malformed one, or undefined: anything else (a notification,
 * an odd id, another method) goes to the SDK's Server.
 */
function plainToolCall(json: unknown): PlainToolCall | MalformedToolCall | undefined {
  if (!isPlainObject(json) || json.jsonrpc !== "2.0" || json.method !== "tools/call") return undefined;
  const { id, params } = json;
  if (!(typeof id === "string" || Number.isInteger(id))) return undefined;
  const rpcId = id as string | number;
  if (!isPlainObject(params)) return { id: rpcId, invalid: "params must be an object: {name, arguments}" };
  const { name, arguments: args } = params;
  if (typeof name !== "string") return { id: rpcId, invalid: "params.name must be the name of a tool (a string)" };
  if (!(args === undefined || isPlainObject(args)))
    return { id: rpcId, invalid: "params.arguments must be an object of the tool's arguments" };
  return { id: rpcId, name, args: args ?? {} };
}

/**
 * A JSON-RPC error for a request: the SDK's Server would answer a malformed tools/call with -32603
 * (internal error) and the issues of its schema check; JSON-RPC names it -32602, and says what to fix.
 */
function rpcError(id: string | number, code: number, message: string): McpAnswer {
  const body = { jsonrpc: "2.0" as const, id, error: { code, message } };
  return { outgoing: { status: 200, headers: jsonHeaders(), body: Buffer.from(JSON.stringify(body)) } };
}

/**
 * A tools/call, the requests that carry the work, answered without the SDK's Server: the same tool
 * call (call-tool.ts) and the same answer, `{jsonrpc, id, result}` or the SDK's error for an
 * unknown tool, without the schema checks and promise chains of its protocol layer, which cost
 * about as much as the call itself (decision: MCP). Every other message goes to the Server.
 */
function answerToolCall(sdk: Sdk, exchange: McpExchange, call: PlainToolCall): McpAnswer {
  const tool = TOOLS_BY_NAME.get(call.name);
  if (!tool) {
    const error = new sdk.McpError(sdk.ErrorCode.InvalidParams, `Unknown tool: ${clipText(call.name, 64)}`);
    return rpcError(call.id, error.code, error.message);
  }
  let structured: Outgoing | undefined;
  const result = callTool(tool, call.args, { ...exchange, keepStructured: (json) => (structured = json) });
  try {
    const message = { jsonrpc: "2.0", id: call.id, result } as JSONRPCMessage;
    const bytes = serializeAnswer(message, structured, exchange.pages);
    return { outgoing: { status: 200, headers: jsonHeaders(), ...bytes }, tool: tool.name };
  } finally {
    structured?.release?.();
  }
}

/**
 * Answers an admitted request for /mcp, refusing in the SDK transport's order what it refuses: a
 * method but POST (405), the headers (406, 415), the body past its bound (413), a batch, JSON that
 * does not parse or is no JSON-RPC message (400), a protocol revision the SDK does not know (400).
 */
export async function answerMcpRequest(exchange: McpExchange): Promise<McpAnswer> {
  if (exchange.method !== "POST") return { outgoing: methodNotAllowed() };
  const sdk = await loadSdk();
  const refused = refusedHeaders(sdk, exchange.headers);
  if (refused) return { outgoing: refused };
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
  const json = parsedJson(body);
  if (json === undefined) return { outgoing: protocolError(400, -32700, "Parse error: Invalid JSON") };
  const call = plainToolCall(json);
  if (call) {
    const refused = refusedVersion(sdk, exchange.headers);
    if (refused) return { outgoing: refused };
    if ("invalid" in call) return rpcError(call.id, sdk.ErrorCode.InvalidParams, `Invalid params: ${call.invalid}`);
    return answerToolCall(sdk, exchange, call);
  }
  const message = refusedMessage(sdk, exchange.headers, json);
  if ("status" in message) return { outgoing: message };
  return answerMessage(sdk, exchange, message);
}
