/**
 * Opt-in CORS for browser apps (decision: CORS): `CORS_ORIGINS` lists the origins allowed, or `*`.
 * A preflight from an allowed origin is answered 204 without a key (preflights carry none); every
 * response to an allowed origin says so and exposes the headers a client reads. Unset: no CORS
 * header at all, and a preflight is a request like any other (a 401 without a key).
 */

export type CorsOrigins = "*" | ReadonlySet<string>;

const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$/;
export const EXPOSED_HEADERS = "ETag, X-Request-Id, RateLimit, RateLimit-Policy, Retry-After";
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Parses CORS_ORIGINS; throws with a message naming the bad entry. Unset or blank: CORS off. */
export function parseCorsOrigins(value: string | undefined): CorsOrigins | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (value.trim() === "*") return "*";
  const origins = new Set<string>();
  for (const entry of value.split(",")) {
    const origin = entry.trim().replace(/\/$/, "");
    if (!ORIGIN.test(origin)) {
      throw new Error(
        `CORS_ORIGINS: ${JSON.stringify(entry.trim())} is not an origin such as https://app.example.com ` +
          "(scheme, host, optional port; no path)",
      );
    }
    origins.add(origin.toLowerCase());
  }
  return origins;
}

/** The Access-Control-Allow-Origin value for a request's Origin, or undefined when it is not allowed. */
export function allowedOrigin(allowed: CorsOrigins | undefined, origin: string | undefined): string | undefined {
  if (!allowed || origin === undefined) return undefined;
  if (allowed === "*") return "*";
  return allowed.has(origin.toLowerCase()) ? origin : undefined;
}

/**
 * The answer to a preflight from an allowed origin; for /mcp, what an MCP client in a browser sends:
 * a POST of JSON with the protocol revision (decision: MCP).
 */
export function preflightHeaders(allowOrigin: string, mcp = false): Record<string, string> {
  return {
    "access-control-allow-origin": allowOrigin,
    "access-control-allow-methods": mcp ? "POST" : "GET, HEAD",
    "access-control-allow-headers": mcp
      ? "Authorization, Content-Type, Mcp-Protocol-Version"
      : "Authorization, If-None-Match",
    "access-control-max-age": String(PREFLIGHT_MAX_AGE_SECONDS),
    vary: "Origin",
    "cache-control": "no-store",
  };
}

/** Adds the headers every response to an allowed origin carries. */
export function addCorsHeaders(headers: Record<string, string>, allowOrigin: string): void {
  headers["access-control-allow-origin"] = allowOrigin;
  headers["access-control-expose-headers"] = EXPOSED_HEADERS;
  // The answer differs by Origin: a shared cache must keep them apart.
  headers.vary = headers.vary ? `${headers.vary}, Origin` : "Origin";
}
