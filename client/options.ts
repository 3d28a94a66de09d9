/**
 * createClient's two settings checked before any request (decision: the typed client's failures): a
 * missing or malformed key, or a base URL fetch cannot use, is a TypeError naming the setting.
 */

/** Printable ASCII without spaces: what a key is made of, and what an HTTP header can carry. */
const KEY_CHARACTERS = /^[\x21-\x7e]+$/;

/** The key as an Authorization header value; never echoes the key in a message. */
export function authorizationOf(apiKey: unknown): string {
  if (apiKey === undefined || apiKey === null || apiKey === "") {
    throw new TypeError(
      "createClient: apiKey is missing: pass the key issued to your organization (e.g. apiKey: " +
        "process.env.API_KEY with API_KEY set)",
    );
  }
  if (typeof apiKey !== "string") throw new TypeError(`createClient: apiKey must be a string, not ${typeof apiKey}`);
  if (/^bearer\s/i.test(apiKey)) throw new TypeError('createClient: apiKey is the key alone, without "Bearer "');
  if (!KEY_CHARACTERS.test(apiKey)) {
    throw new TypeError(
      "createClient: apiKey holds spaces, line breaks or other characters no key has (a key read from a " +
        "file with its newline?)",
    );
  }
  return `Bearer ${apiKey}`;
}

/** A market's id, as the API's markets.json rule has it (lowercase letters, digits and "-", 2..32). */
const MARKET_ID = /^[a-z0-9-]{2,32}$/;

/**
 * The path a market's API is under (`/gb`), or "" without one: a malformed id is a TypeError here
 * rather than a 404 from every request.
 */
export function marketPrefixOf(market: unknown): string {
  if (market === undefined) return "";
  if (typeof market !== "string" || !MARKET_ID.test(market))
    throw new TypeError(
      `createClient: market must be a market's id, 2..32 lowercase letters, digits or "-" (as GET /markets ` +
        `lists them), not ${JSON.stringify(market)}`,
    );
  return `/${market}`;
}

/**
 * Where the API is, without /v1 and without a trailing slash. A base URL ending in /v1 (the
 * address the API's own docs show as `API=`) is taken as meaning the API under it.
 */
export function baseOf(baseUrl: unknown): string {
  const example = "an absolute http(s) URL such as https://listings.example.com";
  let url: URL;
  try {
    url = new URL(String(baseUrl));
  } catch {
    throw new TypeError(`createClient: baseUrl must be ${example}, not ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`createClient: baseUrl must be ${example}, not ${JSON.stringify(baseUrl)}`);
  }
  if (url.username || url.password) throw new TypeError("createClient: baseUrl must not hold a user name or password");
  if (url.search || url.hash)
    throw new TypeError("createClient: baseUrl must not hold a query (?…) or a fragment (#…)");
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "").replace(/\/v1$/, "");
}
