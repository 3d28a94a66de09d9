/**
 * Vercel Routing Middleware: the gateway in front of the CDN cache (api/_adapters/gateway.ts).
 * It runs on every request for /v1, /mcp, a market's (/gb/v1, /gb/mcp), the list of markets
 * (/markets) and the internal prefix, cache hits included.
 */
import { randomUUID } from "node:crypto";
import { deployedGateway } from "./api/_adapters/deployed-gateway.js";
import { toWebResponse } from "./api/_adapters/gateway.js";
import { errorResponse } from "./api/_core/respond/error-response.js";

// A literal, as Vercel reads it statically; a market's API too (decision: markets, deployed per market).
export const config = {
  runtime: "nodejs",
  matcher: [
    "/v1",
    "/v1/:path*",
    "/mcp",
    "/markets",
    "/:market/v1",
    "/:market/v1/:path*",
    "/:market/mcp",
    "/_c",
    "/_c/:path*",
  ],
};

// Literal paths beside this file: Vercel bundles the manifest (or the markets' index) and the build's
// secret with the middleware.
const gateway = deployedGateway(process.env, {
  manifest: new URL("./snapshot/manifest.json", import.meta.url),
  secret: new URL("./generated/gateway-secret", import.meta.url),
  markets: new URL("./snapshot/markets.json", import.meta.url),
});

export default async function middleware(request: Request): Promise<Response> {
  try {
    return await gateway(request);
  } catch (error) {
    // A deployment that cannot configure itself: the usual envelope, the reason in the log only.
    const requestId = randomUUID();
    process.stderr.write(`${JSON.stringify({ level: "error", requestId, error: String((error as Error).message) })}\n`);
    return toWebResponse({ ...errorResponse(error, requestId) });
  }
}
