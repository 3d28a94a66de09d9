/**
 * The MCP server of one request (decision: MCP): the SDK's Server answers initialize and ping, and
 * this module's handlers answer tools/list and tools/call from the tool table. The SDK's low-level
 * Server rather than McpServer: McpServer takes zod schemas and checks arguments with zod's
 * messages, where these tools' arguments are the API's parameters, checked by the API's tables.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { clipText } from "../respond/text.js";
import { callTool, type ToolContext } from "./call-tool.js";
import type { Sdk } from "./sdk.js";
import { toolDefinitions, TOOLS_BY_NAME } from "./tools.js";

export type { ToolContext } from "./call-tool.js";

const SERVER_INFO = { name: "cinema-listings", title: "Cinema listings", version: "1.0.0" };

/** The server never asks the client to fill in a form (elicitation), so it validates no client answer. */
const NO_ELICITATION = {
  getValidator: () => () => ({ valid: false as const, data: undefined, errorMessage: "this server elicits nothing" }),
};

let definitions: Array<Record<string, unknown>> | undefined;

/**
 * A server for one request; `onToolCall` learns the tool a tools/call names (for the log line);
 * `instructions` are what initialize answers (instructions.ts), made only for an initialize.
 */
export function createMcpServer(
  sdk: Sdk,
  context: ToolContext,
  onToolCall: (name: string) => void,
  instructions?: string,
): Server {
  const { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } = sdk;
  const server = new sdk.Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions,
    jsonSchemaValidator: NO_ELICITATION,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: (definitions ??= toolDefinitions()) }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const { name, arguments: args } = request.params;
    const tool = TOOLS_BY_NAME.get(name);
    // An unknown tool is a protocol error (the MCP specification's own example), not a tool's.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${clipText(name, 64)}`);
    onToolCall(tool.name);
    return callTool(tool, args ?? {}, context);
  });
  return server;
}
