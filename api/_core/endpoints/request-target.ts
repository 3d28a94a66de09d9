/**
 * What of a request target the API reads (decision: fragments): alone in its module, so the gateway
 * drops a fragment as the core does without loading the parsers of endpoints it never serves.
 */

/**
 * The target up to its first `#`. A fragment is no part of an HTTP request (RFC 9110 §7.1, RFC 9112
 * §3.2: clients strip it), and on Vercel a URL parser drops it before the gateway or the function
 * sees it, so the local server does the same. An encoded `#` (`%23`) is data and stays.
 */
export function withoutFragment(target: string): string {
  const at = target.indexOf("#");
  return at === -1 ? target : target.slice(0, at);
}
