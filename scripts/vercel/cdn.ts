/**
 * What keeps a request or a response out of Vercel's CDN cache, as Vercel documents it, for the
 * stand-in platform of `verify:vercel` (scripts/vercel/platform.ts; decision: what the CDN keeps):
 *
 * - only GET and HEAD are cached (vercel.com/docs/caching/cdn-cache: "GET and HEAD requests");
 * - a request bypasses the cache (x-vercel-cache: BYPASS) with an `Authorization` header or a
 *   `_vercel_no_cache` cookie or query parameter (vercel.com/docs/concepts/edge-network/x-vercel-cache),
 *   a `Range` header (vercel.com/docs/edge-network/caching) or `Pragma: no-cache`;
 * - a response is not stored with `Set-Cookie`, or a `Vary` naming Cookie
 *   (vercel.com/changelog/vary-cookie-responses-no-longer-cached);
 * - the caching directives are those of `Vercel-CDN-Cache-Control`, else `CDN-Cache-Control`,
 *   else `Cache-Control` (vercel.com/kb/guide/set-cache-control-headers); `private`, `no-store`
 *   or `no-cache` there keeps the response out, `s-maxage` or `max-age` says for how long.
 *
 * The key is the method, the URL with its query and the host (vercel.com/docs/caching/cdn-cache/purge).
 */

export type Headers = Record<string, string>;

/** Why a request goes past the cache to the function, or undefined when it may be served from it. */
export function bypassReason(method: string, url: string, headers: Headers): string | undefined {
  if (method !== "GET" && method !== "HEAD") return `method ${method}`;
  if (headers.authorization !== undefined) return "authorization";
  if (headers.range !== undefined) return "range";
  if (/(^|,)\s*no-cache\s*(,|$)/i.test(headers.pragma ?? "")) return "pragma";
  if (/(^|;)\s*_vercel_no_cache=/.test(headers.cookie ?? "")) return "_vercel_no_cache cookie";
  const query = url.indexOf("?");
  if (query !== -1 && new URLSearchParams(url.slice(query + 1)).has("_vercel_no_cache"))
    return "_vercel_no_cache query";
  return undefined;
}

/** The cache directives in force for the CDN, with the header they came from. */
export function cdnDirectives(headers: Headers): { from: string; directives: Map<string, string> } | undefined {
  for (const name of ["vercel-cdn-cache-control", "cdn-cache-control", "cache-control"]) {
    const value = headers[name];
    if (value === undefined) continue;
    const directives = new Map<string, string>();
    for (const part of value.split(",")) {
      const [directive = "", argument = ""] = part.trim().toLowerCase().split("=");
      if (directive) directives.set(directive, argument.replace(/^"|"$/g, ""));
    }
    return { from: name, directives };
  }
  return undefined;
}

/** How many seconds the CDN keeps a response for, or why it keeps none. */
export function storedFor(status: number, headers: Headers): { seconds: number } | { reason: string } {
  if (status !== 200) return { reason: `status ${status}` };
  if (headers["set-cookie"] !== undefined) return { reason: "set-cookie" };
  if (/(^|,)\s*cookie\s*(,|$)/i.test(headers.vary ?? "")) return { reason: "vary: cookie" };
  const found = cdnDirectives(headers);
  if (!found) return { reason: "no cache-control" };
  for (const blocking of ["private", "no-store", "no-cache"])
    if (found.directives.has(blocking)) return { reason: `${blocking} in ${found.from}` };
  const age = found.directives.get("s-maxage") ?? found.directives.get("max-age");
  const seconds = age !== undefined && /^\d+$/.test(age) ? Number(age) : 0;
  return seconds > 0 ? { seconds } : { reason: `no positive max-age in ${found.from}` };
}

/** The cache key: one deployment and one scheme here, so the method, the URL with its query, the host. */
export function cacheKey(method: string, url: string, headers: Headers): string {
  return [method, url, headers.host ?? ""].join("\n");
}
