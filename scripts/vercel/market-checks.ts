/**
 * verify:vercel's checks of a deployment with markets (decision: markets, deployed per market),
 * through the stand-in platform: each market's API at its own address, answered by its function;
 * a key entitled to one market refused the other (403, details.market) before and after that
 * market's page is in the CDN cache; `/v1` without a default market the 404 naming the markets;
 * a market no one has a 404; a market's page cached per market.
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

interface Got {
  status: number;
  body: string;
  json: () => { data?: Array<{ id: string }>; error?: { code: string; message: string; details?: unknown } };
}

async function get(baseUrl: string, target: string, key: string): Promise<Got> {
  const response = await fetch(`${baseUrl}${target}`, { headers: { authorization: `Bearer ${key}` } });
  const body = await response.text();
  return { status: response.status, body, json: () => JSON.parse(body) };
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
  return results;
}
