/**
 * Sold per market (decision: markets): an entitlement may name the markets it covers; the access
 * file's rule for that list, the pure decision at its bounds, admission in order (401, 429, 403) with
 * one rate limit across markets, the gate's answer for a request of each market, and the Edge
 * Config copy carrying the list.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { remoteAccess } from "../api/_adapters/edge-config-access.js";
import { AccessIndex, isEntitled, staticAccess } from "../api/_core/gate/access.js";
import { parseAccessFile, type Entitlement, type Organization } from "../api/_core/gate/access-file.js";
import { admit, decideAdmission } from "../api/_core/gate/admit.js";
import { passGate } from "../api/_core/gate/gate.js";
import { memoryRateLimiter, type RateDecision } from "../api/_core/gate/rate-limit.js";
import { ServiceUnavailable } from "../api/_core/respond/errors.js";

const NOW = new Date("2026-06-15T12:00:00Z");
const FROM = "2026-06-15T10:00:00Z";
const UNTIL = "2026-06-15T14:00:00Z";
const KEY = "cl_test_markets_5a1c9e";

const paid = (rest: Partial<Entitlement> = {}): Entitlement => ({ plan: "paid", status: "active", ...rest });
const org = (...entitlements: Entitlement[]): Organization => ({ id: "acme", entitlements });

function accessText(entitlement: unknown, rest: Record<string, unknown> = {}): string {
  return JSON.stringify({
    organizations: [{ id: "acme", entitlements: [entitlement], ...rest }],
    keys: [{ id: "k1", organization: "acme", sha256: createHash("sha256").update(KEY).digest("hex"), revoked: false }],
  });
}

describe("an entitlement's markets in the access file", () => {
  test.each([
    { markets: undefined, reason: "absent: every market, as every access file written before markets" },
    { markets: ["gb"], reason: "one market" },
    { markets: ["gb", "dach"], reason: "two" },
    { markets: ["de", "x".repeat(32), "a-1"], reason: "ids of 2 and 32 characters, digits and '-'" },
    { markets: Array.from({ length: 100 }, (_, i) => `m${i}`), reason: "100, as many as a deployment may have" },
  ])("accepted: $reason", ({ markets }) => {
    const parsed = parseAccessFile(accessText(paid({ markets })));
    expect(parsed.organizations[0]!.entitlements[0]!.markets).toEqual(markets);
  });

  const at = "$.organizations[0].entitlements[0].markets";
  test.each([
    { markets: [], problem: `${at} must be a non-empty array of market ids`, reason: "empty: leave it out instead" },
    { markets: "gb", problem: `${at} must be a non-empty array of market ids`, reason: "a string, not a list" },
    { markets: null, problem: `${at} must be a non-empty array of market ids`, reason: "null" },
    {
      markets: Array.from({ length: 101 }, (_, i) => `m${i}`),
      problem: `${at} names 101 markets; a deployment has at most 100`,
      reason: "one past the most markets a deployment has",
    },
    { markets: ["gb", 7], problem: `${at}[1] must be a market id (a string)`, reason: "a number" },
    { markets: ["GB"], problem: `${at}[0] must be a market id`, reason: "uppercase" },
    { markets: ["g"], problem: `${at}[0] must be a market id`, reason: "1 character, one short" },
    { markets: ["x".repeat(33)], problem: `${at}[0] must be a market id`, reason: "33 characters, one past" },
    { markets: ["gb dach"], problem: `${at}[0] must be a market id`, reason: "two ids in one string" },
    { markets: ["v1"], problem: `${at}[0] "v1" can be no market's id`, reason: "reserved: the server answers /v1" },
    {
      markets: ["gb", "dach", "gb"],
      problem: `${at}[2] "gb" is already at ${at}[0]`,
      reason: "a repeat",
    },
  ])("refused: $reason", ({ markets, problem }) => {
    expect(() => parseAccessFile(accessText(paid({ markets: markets as string[] })))).toThrow(problem);
  });

  test("every problem of the list is named, not the first alone", () => {
    const text = accessText(paid({ markets: ["GB", "gb", "gb"] }));
    expect(() => parseAccessFile(text)).toThrow(/markets\[0\] must be a market id.*markets\[2\] "gb" is already/);
  });

  test("an access file without markets reads and writes back byte for byte", () => {
    const text = readFileSync("data/demo-access.json", "utf8");
    const parsed = parseAccessFile(text);
    expect(`${JSON.stringify(parsed, null, 2)}\n`).toBe(text);
    expect(parsed.organizations.flatMap((o) => o.entitlements).some((e) => "markets" in e)).toBe(false);
  });
});

describe("the decision for a request of a market", () => {
  const allowed: RateDecision = { allowed: true, limit: 10, remaining: 9, resetSeconds: 30, windowSeconds: 60 };
  const justBefore = (instant: string) => new Date(new Date(instant).getTime() - 1);

  test.each([
    { reason: "no market named: every market", organization: org(paid()), market: "gb", now: NOW, entitled: true },
    {
      reason: "the market named",
      organization: org(paid({ markets: ["gb"] })),
      market: "gb",
      now: NOW,
      entitled: true,
    },
    {
      reason: "the market among others",
      organization: org(paid({ markets: ["dach", "gb"] })),
      market: "gb",
      now: NOW,
      entitled: true,
    },
    {
      reason: "an entitlement for another market only",
      organization: org(paid({ markets: ["dach"] })),
      market: "gb",
      now: NOW,
      entitled: false,
    },
    {
      reason: "two entitlements, the second covers the market",
      organization: org(paid({ markets: ["dach"] }), { plan: "paid-gb", status: "active", markets: ["gb"] }),
      market: "gb",
      now: NOW,
      entitled: false,
    },
    {
      reason: "two paid entitlements, the second covers the market",
      organization: org(paid({ markets: ["dach"] }), paid({ markets: ["gb"] })),
      market: "gb",
      now: NOW,
      entitled: true,
    },
    {
      reason: "the one covering the market has ended, the other is for another market",
      organization: org(paid({ markets: ["gb"], validUntil: FROM }), paid({ markets: ["dach"] })),
      market: "gb",
      now: NOW,
      entitled: false,
    },
    {
      reason: "the market named, cancelled",
      organization: org(paid({ markets: ["gb"], status: "cancelled" })),
      market: "gb",
      now: NOW,
      entitled: false,
    },
    {
      reason: "the market named, free plan",
      organization: org({ plan: "free", status: "active", markets: ["gb"] }),
      market: "gb",
      now: NOW,
      entitled: false,
    },
    {
      reason: "free plan for every market",
      organization: org({ plan: "free", status: "active" }),
      market: "gb",
      now: NOW,
      entitled: false,
    },
    {
      reason: "at validFrom (inclusive)",
      organization: org(paid({ markets: ["gb"], validFrom: FROM, validUntil: UNTIL })),
      market: "gb",
      now: new Date(FROM),
      entitled: true,
    },
    {
      reason: "1 ms before validFrom",
      organization: org(paid({ markets: ["gb"], validFrom: FROM, validUntil: UNTIL })),
      market: "gb",
      now: justBefore(FROM),
      entitled: false,
    },
    {
      reason: "1 ms before validUntil",
      organization: org(paid({ markets: ["gb"], validFrom: FROM, validUntil: UNTIL })),
      market: "gb",
      now: justBefore(UNTIL),
      entitled: true,
    },
    {
      reason: "at validUntil (exclusive)",
      organization: org(paid({ markets: ["gb"], validFrom: FROM, validUntil: UNTIL })),
      market: "gb",
      now: new Date(UNTIL),
      entitled: false,
    },
    {
      reason: "no market (a single-market deployment): any paid entitlement, whatever markets it names",
      organization: org(paid({ markets: ["dach"] })),
      market: undefined,
      now: NOW,
      entitled: true,
    },
    {
      reason: "no market, cancelled",
      organization: org(paid({ status: "cancelled" })),
      market: undefined,
      now: NOW,
      entitled: false,
    },
  ])("$reason: entitled $entitled", ({ organization, market, now, entitled }) => {
    expect(isEntitled(organization, now, market)).toBe(entitled);
    const admission = decideAdmission(organization, allowed, now, market);
    if (entitled) return expect(admission).toEqual({ organization, rate: allowed });
    expect(admission.refusal).toMatchObject({ status: 403, code: "entitlement_required", rate: allowed });
    if (market === undefined) {
      // A single-market deployment answers as before markets, word for word.
      expect(admission.refusal!.message).toBe("Your organization has no active paid entitlement for this API.");
      expect(admission.refusal!.details).toBeUndefined();
    } else {
      expect(admission.refusal!.message).toBe(
        `Your organization has no active paid entitlement for the market "${market}"; ` +
          "GET /markets lists the markets and which your key may use.",
      );
      expect(admission.refusal!.details).toEqual({ market });
    }
  });

  test("past the rate limit, the 429 comes first: an unentitled market learns nothing more", () => {
    const spent = { ...allowed, allowed: false, remaining: 0 };
    const admission = decideAdmission(org(paid({ markets: ["dach"] })), spent, NOW, "gb");
    expect(admission.refusal).toMatchObject({ status: 429, code: "rate_limited" });
  });
});

describe("admission of requests for markets", () => {
  const policy = { requests: 3, windowSeconds: 60 };
  const access = () => staticAccess(accessText(paid({ markets: ["gb", "dach"] }), { rateLimit: policy }));

  test("one rate limit for the organization across markets, refused requests counted", async () => {
    const [source, limiter] = [access(), memoryRateLimiter()];
    const outcomes = [];
    for (const market of ["gb", "dach", "nordics", "gb"]) {
      const admission = await admit(`Bearer ${KEY}`, source, limiter, NOW, market);
      outcomes.push([market, admission.rate.remaining, admission.refusal?.status]);
    }
    expect(outcomes).toEqual([
      ["gb", 2, undefined],
      ["dach", 1, undefined],
      ["nordics", 0, 403],
      ["gb", 0, 429],
    ]);
  });

  test("a key without one stays a 401, whatever the market", () => {
    expect(() => admit(undefined, access(), memoryRateLimiter(), NOW, "gb")).toThrow(
      expect.objectContaining({ status: 401, code: "unauthorized" }),
    );
  });
});

describe("the gate's answer depends on the request's market", () => {
  // The CDN caches per path, and the path holds the market: a body of one market is served to a key
  // only after the gate admitted that key for that market (decision: markets).
  const options = () => ({
    access: staticAccess(accessText(paid({ markets: ["gb"] }))),
    limiter: memoryRateLimiter(),
    now: () => NOW,
  });
  const request = { method: "GET", url: "/v1/films", headers: { authorization: `Bearer ${KEY}` } };

  test.each([
    { market: "gb", admitted: true },
    { market: "dach", admitted: false },
    { market: undefined, admitted: true },
  ])("market $market: admitted $admitted", async ({ market, admitted }) => {
    const outcome = await passGate(request, "req-1", options(), market);
    expect(outcome.admitted).toBe(admitted);
    if (outcome.admitted) return expect(outcome.organization).toBe("acme");
    expect(outcome.answer.status).toBe(403);
    expect(outcome.organization).toBe("acme");
    const body = JSON.parse(outcome.answer.body.toString("utf8"));
    expect(body.error).toMatchObject({ code: "entitlement_required", details: { market: "dach" } });
    expect(outcome.answer.headers).toMatchObject({ ratelimit: expect.any(String) });
  });
});

describe("the Edge Config copy carries markets", () => {
  test("an item naming markets decides as the file does", async () => {
    const item: unknown = JSON.parse(accessText(paid({ markets: ["dach"] })));
    const base = new AccessIndex(parseAccessFile(accessText(paid())));
    const source = remoteAccess(base, { read: async () => item, now: () => 0 });
    const limiter = memoryRateLimiter();
    expect((await admit(`Bearer ${KEY}`, source, limiter, NOW, "dach")).refusal).toBeUndefined();
    expect((await admit(`Bearer ${KEY}`, source, limiter, NOW, "gb")).refusal?.details).toEqual({ market: "gb" });
  });

  test("an item whose markets are broken is reported; an instance that read no good one admits no one", async () => {
    const problems: string[] = [];
    const item: unknown = JSON.parse(accessText(paid({ markets: [] })));
    const base = new AccessIndex(parseAccessFile(accessText(paid({ markets: ["gb"] }))));
    const source = remoteAccess(base, { read: async () => item, now: () => 0, onProblem: (p) => problems.push(p) });
    await expect(admit(`Bearer ${KEY}`, source, memoryRateLimiter(), NOW, "gb")).rejects.toBeInstanceOf(
      ServiceUnavailable,
    );
    expect(problems.join("\n")).toContain("entitlements[0].markets must be a non-empty array of market ids");
  });
});
