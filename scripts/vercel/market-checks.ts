/**
 * verify:vercel's checks of a deployment with markets (decision: markets, deployed per market),
 * through the stand-in platform: each market's API at its own address, answered by its function;
 * a key entitled to one market refused the other (403, details.market) before and after that
 * market's page is in the CDN cache; `/v1` without a default market the 404 naming the markets;
 * a market no one has a 404; a market's page cached per market; `GET /markets`, which those 404s
 * point at, answered by the gateway from the bundled index per key, and MCP's list_markets on a
 * market's function answering the same.
 */
import { createHash } from "node:crypto";
import type { HttpCheckResult } from "./http-checks.js";
import type { Platform } from "./platform.js";

/** The markets the demo data is split into: its cinemas are in GB and DE. */
export const DEMO_MARKETS = [
  { id: "gb", name: "United Kingdom", countries: ["GB"] },
  { id: "de", name: "Germany", countries: ["DE"] },
];

/** A key of an organization sold gb alone, added to the demo access data for these checks. */
export const GB_ONLY_KEY = "cl_verify_gb_only_6e1d0c9a7b3f4285";

/** The demo access data with an organization entitled to gb alone and its key. */
export function marketsAccess(accessText: string): string {
  const access = JSON.parse(accessText) as { organizations: unknown[]; keys: unknown[] };
  access.organizations.push({ id: "gb-only", entitlements: [{ plan: "paid", status: "active", markets: ["gb"] }] });
  const sha256 = createHash("sha256").update(GB_ONLY_KEY).digest("hex");
  access.keys.push({ id: "gb-only-key", organization: "gb-only", sha256, revoked: false });
  return JSON.stringify(access);
}

interface Listed {
  id: string;
  entitled?: boolean;
  counts?: unknown;
}

interface Got {
  status: number;
  body: string;
  json: () => { data?: Listed[]; error?: { code: string; message: string; details?: unknown }; result?: any };
}

async function get(baseUrl: string, target: string, key: string, init: RequestInit = {}): Promise<Got> {
  const headers = { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) };
  const response = await fetch(`${baseUrl}${target}`, { ...init, headers });
  const body = await response.text();
  return { status: response.status, body, json: () => JSON.parse(body) };
}

/** MCP's list_markets at a market's endpoint: a POST, which reaches that market's function. */
function listMarketsAt(baseUrl: string, target: string, key: string): Promise<Got> {
  const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_markets", arguments: {} } };
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  return get(baseUrl, target, key, { method: "POST", headers, body: JSON.stringify(message) });
}

/** GET /markets per key, as the 404s naming the markets point at it, and list_markets on a market's function. */
async function listChecks(baseUrl: string, every: string): Promise<HttpCheckResult[]> {
  const all = await get(baseUrl, "/markets", every);
  const gbOnly = await get(baseUrl, "/markets", GB_ONLY_KEY);
  const flags = (got: Got) => (got.json().data ?? []).map((m) => `${m.id}:${m.entitled}`).join(",");
  const held = (got: Got) => (got.json().data ?? []).every((m) => m.counts !== null && m.counts !== undefined);
  const listed = [
    result(
      "GET /markets lists every market with what it holds, entitled per key (answered by the gateway)",
      all.status === 200 &&
        gbOnly.status === 200 &&
        flags(all) === "gb:true,de:true" &&
        flags(gbOnly) === "gb:true,de:false" &&
        held(all),
      `${all.status} [${flags(all)}], sold gb alone ${gbOnly.status} [${flags(gbOnly)}]`,
    ),
  ];
  const asked: Array<[string, string, Got]> = [
    ["/de/mcp", every, all],
    ["/gb/mcp", GB_ONLY_KEY, gbOnly],
  ];
  const differs: string[] = [];
  for (const [target, key, expected] of asked) {
    const answer = await listMarketsAt(baseUrl, target, key);
    const content = answer.status === 200 ? answer.json().result?.structuredContent : undefined;
    if (JSON.stringify(content) !== expected.body) differs.push(`${target} ${answer.status}`);
  }
  listed.push(
    result(
      "MCP's list_markets on a market's function answers what GET /markets answers the same key",
      differs.length === 0,
      differs.length ? `differs: ${differs.join(", ")}` : asked.map(([target]) => target).join(", "),
    ),
  );
  return listed;
}

const result = (name: string, ok: boolean, detail: string): HttpCheckResult => ({ name, ok, detail });

/** The checks; `every` is a key entitled to every market. */
export async function runMarketChecks(baseUrl: string, platform: Platform, every: string): Promise<HttpCheckResult[]> {
  const results: HttpCheckResult[] = [];
  const gb = await get(baseUrl, "/gb/v1/cinemas", every);
  const de = await get(baseUrl, "/de/v1/cinemas", every);
  const ids = (got: Got) => (got.json().data ?? []).map((c) => c.id).join(",");
  results.push(
    result(
      "each market's API answers its own cinemas",
      gb.status === 200 && de.status === 200 && ids(gb) !== "" && ids(de) !== "" && ids(gb) !== ids(de),
      `gb ${gb.status} [${ids(gb)}], de ${de.status} [${ids(de)}]`,
    ),
  );
  // de's page is now in the CDN cache: a key sold gb alone must still be refused it.
  const refused = await get(baseUrl, "/de/v1/cinemas", GB_ONLY_KEY);
  const details = refused.status === 403 ? refused.json().error?.details : undefined;
  results.push(
    result(
      "a key sold gb alone is refused de, its page cached or not (403, details.market)",
      refused.status === 403 && JSON.stringify(details) === JSON.stringify({ market: "de" }),
      `${refused.status} ${JSON.stringify(details)}`,
    ),
  );
  const own = await get(baseUrl, "/gb/v1/cinemas", GB_ONLY_KEY);
  results.push(result("a key sold gb alone is served gb", own.status === 200 && own.body === gb.body, `${own.status}`));
  const before = platform.events.length;
  await get(baseUrl, "/gb/v1/cinemas", every);
  const again = platform.events.slice(before).filter((e) => e.url.includes("/v1/cinemas"));
  results.push(
    result(
      "a market's page comes from the CDN cache the second time",
      again.some((e) => e.served === "HIT" || e.cache === "HIT"),
      again.map((e) => `${e.cache}/${e.served}`).join(", "),
    ),
  );
  const plain = await get(baseUrl, "/v1/cinemas", every);
  const nowhere = await get(baseUrl, "/xx/v1/cinemas", every);
  const message = (got: Got) => got.json().error?.message ?? "";
  results.push(
    result(
      "/v1 without a default market, and a market no one has, are 404s naming the markets",
      plain.status === 404 &&
        nowhere.status === 404 &&
        message(plain).includes("/gb/v1") &&
        message(nowhere).includes('No market has the id "xx"'),
      `${plain.status} ${message(plain)} | ${nowhere.status} ${message(nowhere)}`,
    ),
  );
  results.push(...(await listChecks(baseUrl, every)));
  return results;
}
