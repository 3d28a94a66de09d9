/**
 * `/mcp`, the listings as a Model Context Protocol server (decision: MCP). The server itself
 * (api/_core/mcp/, the SDK and the tool table) is imported on the first request for it, so a
 * request for /v1 never loads any of it (its cold start pays nothing). Only the request core
 * imports this module: the gateway knows the path alone (mcp-path.ts) and bundles none of it.
 */
import type { McpAnswer, McpExchange } from "../mcp/mcp-endpoint.js";

export type { McpAnswer, McpExchange } from "../mcp/mcp-endpoint.js";
export { isMcpTarget } from "./mcp-path.js";

let loaded: Promise<typeof import("../mcp/mcp-endpoint.js")> | undefined;

/** Answers an admitted MCP request through the MCP module, loaded once on first use. */
export async function answerMcp(exchange: McpExchange): Promise<McpAnswer> {
  loaded ??= import("../mcp/mcp-endpoint.js");
  const { answerMcpRequest } = await loaded.catch((error: unknown) => {
    // A failed load is not remembered: the next request tries again.
    loaded = undefined;
    throw error;
  });
  return answerMcpRequest(exchange);
}
