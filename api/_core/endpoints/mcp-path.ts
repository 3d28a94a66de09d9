/**
 * Where the MCP endpoint is (decision: MCP): its path alone, for the gate, the internal path and the
 * gateway, which recognise it without reaching the module that loads the MCP server (mcp-route.ts).
 */
export const MCP_PATH = "/mcp";

/** Whether a target (origin-form) is the MCP endpoint; a query, if any, is ignored. */
export function isMcpTarget(url: string): boolean {
  return url.startsWith(MCP_PATH) && (url.length === MCP_PATH.length || url[MCP_PATH.length] === "?");
}
