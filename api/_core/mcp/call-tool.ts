/**
 * A tools/call (decision: MCP): the arguments become the API target the tool asks, the request core
 * serves it in process exactly as it serves HTTP, and the API's JSON is the structured content
 * (find_showtimes's in a shorter shape: showtime-listing.ts), beside its text. Whatever the API
 * refuses is a tool error carrying the API's message (a bad argument says what to fix); anything
 * else is the API's 503 or 500 message, never an internal.
 */
import { INTERNAL_ERROR_MESSAGE, toApiError } from "../respond/errors.js";
import type { Outgoing } from "../respond/respond.js";
import { clipText } from "../respond/text.js";
import type { ZoneOffset } from "./local-time.js";
import type { Arguments } from "./tool-arguments.js";
import type { Tool } from "./tools.js";

/** What a tool needs of the request being served. */
export interface ToolContext {
  /**
   * Serves a GET of an API target (path and query) through the core's serve path; throws its errors.
   * `listing`: a page of showtimes in find_showtimes's shape (showtime-listing.ts).
   */
  ask(target: string, listing?: boolean): Outgoing;
  zoneOffset: ZoneOffset;
  requestId: string;
  /** Told of a failure that is no fault of the arguments (a 5xx), to be logged with the request id. */
  onError(error: unknown): void;
  /**
   * Keeps the structured content's JSON, to send as it is: the API's answer (whoever keeps it gives
   * its buffer back, `release`, once it is sent).
   */
  keepStructured(answer: Outgoing): void;
}

/**
 * The longest text (code points): with structured content of at most 20 records of 3 × 40,000 bytes
 * (a showtime with its film and cinema; decision: record size), an answer stays far below Vercel's
 * 4.5 MB (decision: MCP). Real pages are a few kilobytes; only absurd records reach it.
 */
export const MAX_TEXT_LENGTH = 100_000;

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function toolError(thrown: unknown, context: ToolContext): ToolResult {
  const error = toApiError(thrown);
  if (error.status >= 500) context.onError(thrown);
  const text =
    error.message === INTERNAL_ERROR_MESSAGE ? `${error.message} Request id: ${context.requestId}.` : error.message;
  return { content: [{ type: "text", text }], isError: true };
}

export function callTool(tool: Tool, args: Arguments, context: ToolContext): ToolResult {
  let answer: Outgoing | undefined;
  try {
    answer = context.ask(tool.target.targetOf(args), tool.listing);
    if (answer.status !== 200) throw new Error(`the API answered ${answer.status} without an error`);
    const content = JSON.parse(answer.body.toString("utf8"));
    const text = clipText(tool.render(content, context.zoneOffset), MAX_TEXT_LENGTH);
    // Sent as the bytes it is (post-transport.ts): the API's own.
    context.keepStructured(answer);
    answer = undefined;
    return { content: [{ type: "text", text }], structuredContent: content };
  } catch (thrown) {
    return toolError(thrown, context);
  } finally {
    answer?.release?.();
  }
}
