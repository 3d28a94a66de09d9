/**
 * The parts of the MCP SDK the endpoint uses, imported on the first MCP request (decision: MCP).
 * Dynamic imports, not static ones: a bundler hoists a static import of a package it leaves
 * external to the top of its output, and every cold start would load the SDK; a dynamic one stays
 * where it is, in any bundle.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";

export interface Sdk {
  Server: typeof Server;
  Transport: typeof WebStandardStreamableHTTPServerTransport;
  CallToolRequestSchema: typeof CallToolRequestSchema;
  ListToolsRequestSchema: typeof ListToolsRequestSchema;
  McpError: typeof McpError;
  ErrorCode: typeof ErrorCode;
}

let loading: Promise<Sdk> | undefined;

/** The SDK, loaded once per process. */
export function loadSdk(): Promise<Sdk> {
  loading ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(
    ([server, transport, types]) => ({
      Server: server.Server,
      Transport: transport.WebStandardStreamableHTTPServerTransport,
      CallToolRequestSchema: types.CallToolRequestSchema,
      ListToolsRequestSchema: types.ListToolsRequestSchema,
      McpError: types.McpError,
      ErrorCode: types.ErrorCode,
    }),
    (error: unknown) => {
      // Not remembered: the next request tries again.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
