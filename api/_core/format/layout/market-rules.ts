/**
 * What a market is (decision: markets): an id that names it in addresses, folders and tokens, a name,
 * and the countries whose cinemas it holds. The rules are written once, here: the build checks a data
 * folder's markets.json by them (each break a problem) and the server's parser of a multi-market
 * folder's index by the same (any break a broken folder).
 */

export interface Market {
  id: string;
  name: string;
  countries: string[];
}

/** Lowercase letters, digits and `-`: an id goes into an address (`/{id}/v1`) and names a folder. */
export const MARKET_ID_PATTERN = /^[a-z0-9-]{2,32}$/;

/**
 * Names the server answers at the top level, which no market may take (a market `v1` would hide the
 * API's own paths), and `all`, which `npm run keys -- org set --markets all` reads as every market;
 * `_c` (the gateway's internal path) and dotted names cannot match the pattern anyway.
 */
export const RESERVED_MARKET_IDS: readonly string[] = [
  "_c",
  "all",
  "api",
  "healthz",
  "markets",
  "mcp",
  "register",
  "v1",
];

export const MARKET_BOUNDS = {
  markets: [1, 100],
  name: [1, 120],
  countries: [1, 250],
} as const satisfies Record<string, readonly [number, number]>;

/** A cinema's location.countryCode, ISO 3166-1 alpha-2: the cinema schema's rule and a market's. */
export const COUNTRY_CODE_PATTERN = /^[A-Z]{2}$/;
export const COUNTRY_CODE_RULE = "must be an ISO 3166-1 alpha-2 code: two uppercase letters";

/** One broken rule: which market (its place in the list), which field, and what is wrong. */
export interface MarketIssue {
  code: "invalid_market" | "duplicate_market" | "country_in_two_markets";
  index?: number;
  path: string;
  message: string;
}

const FIELDS = ["id", "name", "countries"];

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Characters as the spec counts them: code points. */
function lengthOf(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

const within = (n: number, [min, max]: readonly [number, number]) => n >= min && n <= max;

/** Why `id` cannot name a market, or undefined. */
export function marketIdProblem(id: string): string | undefined {
  if (!MARKET_ID_PATTERN.test(id))
    return `must be 2..32 lowercase letters, digits or "-"; received ${JSON.stringify(id.slice(0, 40))}`;
  if (RESERVED_MARKET_IDS.includes(id))
    return `${JSON.stringify(id)} is reserved: the server answers /${id} itself; choose another id`;
  return undefined;
}

function countryIssues(countries: unknown, at: number): MarketIssue[] {
  const issue = (path: string, message: string): MarketIssue => ({ code: "invalid_market", index: at, path, message });
  if (!Array.isArray(countries)) return [issue("countries", "must be an array of country codes")];
  const [min, max] = MARKET_BOUNDS.countries;
  if (!within(countries.length, MARKET_BOUNDS.countries))
    return [issue("countries", `must hold ${min}..${max} country codes (got ${countries.length})`)];
  const first = new Map<string, number>();
  return countries.flatMap((code, i): MarketIssue[] => {
    const path = `countries[${i}]`;
    if (typeof code !== "string" || !COUNTRY_CODE_PATTERN.test(code))
      return [issue(path, `${COUNTRY_CODE_RULE}; received ${JSON.stringify(code)}`)];
    const seen = first.get(code);
    if (seen !== undefined)
      return [issue(path, `${JSON.stringify(code)} is listed twice (first at countries[${seen}])`)];
    first.set(code, i);
    return [];
  });
}

/** The rules one market breaks by itself (its fields; `extra` names fields a caller adds and checks). */
function marketIssues(value: unknown, at: number, extra: readonly string[]): MarketIssue[] {
  const issue = (path: string, message: string): MarketIssue => ({ code: "invalid_market", index: at, path, message });
  if (!isObject(value)) return [issue("", "must be a JSON object with id, name and countries")];
  const issues = Object.keys(value)
    .filter((key) => !FIELDS.includes(key) && !extra.includes(key))
    .map((key) => issue(key, `is not a field of a market (${[...FIELDS, ...extra].join(", ")})`));
  for (const field of FIELDS) if (value[field] === undefined) issues.push(issue(field, "is required"));
  const { id, name, countries } = value;
  if (id !== undefined) {
    const problem = typeof id === "string" ? marketIdProblem(id) : "must be a string";
    if (problem) issues.push(issue("id", problem));
  }
  if (name !== undefined) {
    const [min, max] = MARKET_BOUNDS.name;
    if (typeof name !== "string") issues.push(issue("name", "must be a string"));
    else if (!within(lengthOf(name), MARKET_BOUNDS.name))
      issues.push(issue("name", `must be ${min}..${max} characters long (got ${lengthOf(name)})`));
  }
  if (countries !== undefined) issues.push(...countryIssues(countries, at));
  return issues;
}

/** Ids used twice and countries in two markets: each named at its later place, with the earlier one. */
function crossIssues(markets: readonly unknown[]): MarketIssue[] {
  const ids = new Map<string, number>();
  const countries = new Map<string, { index: number; id: string }>();
  const issues: MarketIssue[] = [];
  markets.forEach((market, index) => {
    if (!isObject(market)) return;
    const id = typeof market.id === "string" ? market.id : `[${index}]`;
    if (typeof market.id === "string") {
      const seen = ids.get(market.id);
      if (seen === undefined) ids.set(market.id, index);
      else
        issues.push({
          code: "duplicate_market",
          index,
          path: "id",
          message: `${JSON.stringify(market.id)} is already the id of the market at [${seen}]`,
        });
    }
    if (!Array.isArray(market.countries)) return;
    market.countries.forEach((code: unknown, i: number) => {
      if (typeof code !== "string" || !COUNTRY_CODE_PATTERN.test(code)) return;
      const other = countries.get(code);
      if (!other) countries.set(code, { index, id });
      else if (other.index !== index)
        issues.push({
          code: "country_in_two_markets",
          index,
          path: `countries[${i}]`,
          message:
            `${JSON.stringify(code)} is in market ${JSON.stringify(id)} and in market ${JSON.stringify(other.id)} ` +
            `(at [${other.index}]): a country's cinemas belong to one market`,
        });
    });
  });
  return issues;
}

/**
 * Every rule a list of markets breaks, in list order: 1..100 markets, each with exactly id, name and
 * countries (and `extra`), ids unique, no country in two markets. Empty: the list is valid.
 */
export function checkMarkets(value: unknown, extra: readonly string[] = []): MarketIssue[] {
  const example = '[{"id": "gb", "name": "United Kingdom", "countries": ["GB"]}]';
  if (!Array.isArray(value))
    return [{ code: "invalid_market", path: "", message: `must hold a JSON array of markets, such as ${example}` }];
  const [min, max] = MARKET_BOUNDS.markets;
  if (!within(value.length, MARKET_BOUNDS.markets))
    return [{ code: "invalid_market", path: "", message: `must hold ${min}..${max} markets (got ${value.length})` }];
  const own = value.flatMap((market, index) => marketIssues(market, index, extra));
  return [...own, ...crossIssues(value)];
}
