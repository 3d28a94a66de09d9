/**
 * Where an MCP client looks for OAuth (decision: MCP): the protected resource's metadata (RFC 9728,
 * at the root and after the MCP endpoint's path), the authorization server's (RFC 8414, OpenID
 * Connect discovery) and dynamic client registration (RFC 7591, `/register`, where the SDK's client
 * registers when it finds no metadata). This API takes bearer keys only and has none of them, so
 * each is a 404 with or without a key: a client that follows the MCP authorization spec stops there
 * and shows the 401 it had, and one that tries to register reads in the 404 what to send instead.
 */
import { ApiError } from "../respond/errors.js";

const WELL_KNOWN = ["oauth-protected-resource", "oauth-authorization-server", "openid-configuration"].map(
  (name) => `/.well-known/${name}`,
);
const REGISTER = "/register";

/** Whether `path` is `prefix` or lies under it. */
const isAtOrUnder = (path: string, prefix: string) =>
  path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === "/");

/** Whether a target (origin-form) is a place OAuth is looked for; a query, if any, is ignored. */
export function isOAuthDiscovery(url: string): boolean {
  // One character decides for every API request: their paths start /v1, /mcp, /healthz.
  if (url[1] !== "." && url[1] !== "r") return false;
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  return path === REGISTER || WELL_KNOWN.some((prefix) => isAtOrUnder(path, prefix));
}

/** The 404 of every such path: there is no OAuth here, and what to send instead. */
export function noOAuth(): ApiError {
  return new ApiError(
    404,
    "not_found",
    "This API has no OAuth: it takes an API key, sent as the header Authorization: Bearer <API_KEY> " +
      "(an MCP client: among the headers its configuration sends).",
  );
}
