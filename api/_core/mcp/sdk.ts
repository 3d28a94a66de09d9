/**
 * The parts of the MCP SDK the endpoint uses, imported on the first MCP request (decision: MCP).
 * Dynamic imports, not static ones: a bundler hoists a static import of a package it leaves
 * external to the top of its output, and every cold start would load the SDK; a dynamic one stays
 * where it is, in any bundle.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import type {
  CallToolRequestSchema,
  ErrorCode,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";

export interface Sdk {
  Server: typeof Server;
  CallToolRequestSchema: typeof CallToolRequestSchema;
  ListToolsRequestSchema: typeof ListToolsRequestSchema;
  JSONRPCMessageSchema: typeof JSONRPCMessageSchema;
  SUPPORTED_PROTOCOL_VERSIONS: typeof SUPPORTED_PROTOCOL_VERSIONS;
  McpError: typeof McpError;
  ErrorCode: typeof ErrorCode;
  isJsonContentType: typeof isJsonContentType;
}

let loading: Promise<Sdk> | undefined;

/** The SDK, loaded once per process. */
export function loadSdk(): Promise<Sdk> {
  loading ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/shared/mediaType.js"),
  ]).then(
    ([server, types, mediaType]) => ({
      Server: server.Server,
      CallToolRequestSchema: types.CallToolRequestSchema,
      ListToolsRequestSchema: types.ListToolsRequestSchema,
      JSONRPCMessageSchema: types.JSONRPCMessageSchema,
      SUPPORTED_PROTOCOL_VERSIONS: types.SUPPORTED_PROTOCOL_VERSIONS,
      McpError: types.McpError,
      ErrorCode: types.ErrorCode,
      isJsonContentType: mediaType.isJsonContentType,
    }),
    (error: unknown) => {
      // Not remembered: the next request tries again.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
