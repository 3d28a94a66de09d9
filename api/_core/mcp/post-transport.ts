/**
 * Streamable HTTP for a stateless server answering JSON, one message per POST (decision: MCP): an
 * implementation of the SDK's Transport interface, over which the SDK's Server runs the protocol
 * (initialize, ping, the tool handlers, JSON-RPC errors). It refuses what the SDK's web-standard
 * transport refuses, with the same statuses and messages, but puts no Request, Response or web
 * stream between the socket and the server (that transport's cost per request was as much as the
 * rest of a tool call's), and it sends a tool's structured content as the API's own bytes.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Outgoing } from "../respond/respond.js";
import { PagePool } from "../format/primitives/page-buffer.js";
import type { Sdk } from "./sdk.js";

type Headers = Record<string, string | string[] | undefined>;

/**
 * An answer's headers, a fresh object each time: the caller's headers are added to it. (A copy of a
 * shared object by spreading it, `{...headers}`, took V8 a slow path for each header added after:
 * 3 µs an answer against 0.07.)
 */
export const jsonHeaders = (): Record<string, string> => ({
  "content-type": "application/json",
  "cache-control": "no-store",
});

/** A JSON-RPC error without an id, as the SDK's transport answers what it refuses before reading a message. */
export function protocolError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Outgoing {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
  return { status, headers: Object.assign(jsonHeaders(), headers), body };
}

const headerOf = (headers: Headers, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
};

/** What the SDK's transport checks of the headers before it reads a body: the Accept and Content-Type of a POST. */
export function refusedHeaders(sdk: Sdk, headers: Headers): Outgoing | undefined {
  const accept = headerOf(headers, "accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream"))
    return protocolError(406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream");
  if (!sdk.isJsonContentType(headerOf(headers, "content-type")))
    return protocolError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
  return undefined;
}

/** What the SDK's transport checks of a parsed body: a JSON-RPC message, and the revision a non-initialize names. */
export function refusedMessage(sdk: Sdk, headers: Headers, parsed: unknown): Outgoing | JSONRPCMessage {
  const checked = sdk.JSONRPCMessageSchema.safeParse(parsed);
  if (!checked.success) return protocolError(400, -32700, "Parse error: Invalid JSON-RPC message");
  const isInitialize = "method" in checked.data && checked.data.method === "initialize";
  return (!isInitialize && refusedVersion(sdk, headers)) || checked.data;
}

/** One message in, at most one answer out. */
export class PostTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  private answered: ((message: JSONRPCMessage) => void) | undefined;
  private requestId: unknown;
  /** The JSON of the answer's `structuredContent`, when a tool gave it (sent as it is). */
  structured: Outgoing | undefined;

  /** `pages` lends the buffer an answer with structured content is written into (serializeAnswer). */
  constructor(private readonly pages = new PagePool()) {}

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Only the answer to the one request matters: this server sends no request or notification of its own.
    if ("id" in message && message.id === this.requestId && ("result" in message || "error" in message))
      this.answered?.(message);
  }

  /** Hands the message to the server: a request's answer as JSON (200), anything else accepted (202). */
  async deliver(message: JSONRPCMessage): Promise<Outgoing> {
    if (!("method" in message) || !("id" in message)) {
      this.onmessage?.(message);
      return { status: 202, headers: { "cache-control": "no-store" }, body: Buffer.alloc(0) };
    }
    this.requestId = message.id;
    const answer = new Promise<JSONRPCMessage>((resolve) => {
      this.answered = resolve;
    });
    this.onmessage?.(message);
    try {
      return { status: 200, headers: jsonHeaders(), ...serializeAnswer(await answer, this.structured, this.pages) };
    } finally {
      this.structured?.release?.();
    }
  }
}

/** An answer's bytes: `body`, and `release` to give its memory back once it is sent, when it is lent. */
export type AnswerBytes = Pick<Outgoing, "body" | "release">;

/**
 * An answer's JSON; a tool's structured content spliced in as the JSON it is (`structured`), the
 * whole written into a buffer lent from `pages` (the core's, which its composed pages are written
 * into): encoded and copied once, into memory in use already, where a fresh buffer of each
 * answer's size cost more than the copy. It is given back once the answer is sent (`release`).
 */
export function serializeAnswer(
  message: JSONRPCMessage,
  structured: Outgoing | undefined,
  pages: PagePool,
): AnswerBytes {
  const result = "result" in message ? (message.result as Record<string, unknown>) : undefined;
  if (structured === undefined || result?.structuredContent === undefined)
    return { body: Buffer.from(JSON.stringify(message)) };
  const { structuredContent: _parsed, ...rest } = result;
  if (Object.keys(rest).length === 0) return { body: Buffer.from(JSON.stringify(message)) };
  // The message without the member, less its last two bytes (the result's and the message's
  // closing braces), the member, then the braces.
  const page = pages.acquire();
  page.text(JSON.stringify({ jsonrpc: "2.0", id: (message as { id: unknown }).id, result: rest }));
  page.length -= 2;
  page.ascii(',"structuredContent":');
  page.raw(structured.body);
  page.ascii("}}");
  return { body: page.lend(), release: () => pages.release(page) };
}

/**
 * The revision a message other than initialize names in its header, when the SDK does not know it:
 * the 400 its transport answers; undefined when it is known or absent.
 */
export function refusedVersion(sdk: Sdk, headers: Headers): Outgoing | undefined {
  const version = headerOf(headers, "mcp-protocol-version");
  if (version === undefined || sdk.SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  const supported = sdk.SUPPORTED_PROTOCOL_VERSIONS.join(", ");
  return protocolError(
    400,
    -32000,
    `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported})`,
  );
}
