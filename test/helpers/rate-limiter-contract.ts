/**
 * What every rate limiter promises (decision: rate limits), as one set of cases run against each
 * (after Hono's router/common.case.test.ts): counting at the limit and just past it, windows and
 * their edges, the RateLimit and Retry-After fields, organizations and windows apart, instances
 * sharing one count where the limiter is shared, and, for a limiter backed by a store, failing
 * open with exactly the memory limiter's decisions and one report (a store that fails, and one
 * that never answers: no hit waits past its deadline), then counting in the store again with one
 * report once it is back. A shared limiter's deadline is one the test passes by hand: nothing
 * waits for real, and a slow reply on a loaded machine is never taken for an outage.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { staticAccess } from "../../api/_core/gate/access.js";
import { admit } from "../../api/_core/gate/admit.js";
import { addCallerHeaders } from "../../api/_core/gate/caller-headers.js";
import { memoryRateLimiter, type RateDecision, type RateLimiter } from "../../api/_core/gate/rate-limit.js";
import type { Wait } from "../../api/_adapters/store-rate-limit.js";

/** What a limiter is, known before it is set up: which cases apply. */
export interface LimiterKind {
  /** Instances share one count (a store), or each counts alone (memory). */
  shared: boolean;
}

export interface LimiterUnderTest {
  /**
   * A new instance; `reports` receives its outage reports, `wait` is its deadline (the shared
   * limiter's). Instances share the store, if there is one.
   */
  make(reports?: string[], wait?: Wait): RateLimiter;
  /** The store behind a shared limiter. */
  store?: {
    /** The store refuses or drops every request. */
    break(): Promise<void>;
    /** The store takes every request and never answers (a hung process, a black-holed route). */
    silence(): Promise<void>;
    /** Undoes break or silence. */
    mend(): Promise<void>;
    /** After mending: until every instance made may reach the store again (a clock moved, a reconnect). */
    recovered(): Promise<void>;
  };
  dispose?(): Promise<void>;
}

const POLICY = { requests: 3, windowSeconds: 60 };
/** 12:00:10 UTC: 50 s before the minute's window ends. */
const T0 = Date.UTC(2026, 10, 23, 12, 0, 10);
const WINDOW_START = T0 - 10_000;

const summary = (d: RateDecision) => [d.allowed, d.remaining, d.resetSeconds];

/** Deadlines that pass only when `pass` is called; `make` gets one unless a case brings its own. */
export function manualDeadlines() {
  const waiting = new Set<() => void>();
  const wait: Wait = (_ms, signal) =>
    new Promise<void>((resolve) => {
      waiting.add(resolve);
      signal.addEventListener("abort", () => waiting.delete(resolve), { once: true });
    });
  return {
    wait,
    /** Passes every deadline now running. */
    pass() {
      for (const resolve of waiting) resolve();
      waiting.clear();
    },
  };
}

const STILL_WAITING = "still waiting";

/** What `promise` settled with within a few real milliseconds, or STILL_WAITING. */
async function settledSoon<T>(promise: T | Promise<T>): Promise<T | typeof STILL_WAITING> {
  let timer: NodeJS.Timeout | undefined;
  const soon = new Promise<typeof STILL_WAITING>((resolve) => (timer = setTimeout(resolve, 25, STILL_WAITING)));
  try {
    return await Promise.race([promise, soon]);
  } finally {
    clearTimeout(timer);
  }
}

async function hits(limiter: RateLimiter, org: string, times: number, nowMs = T0): Promise<RateDecision[]> {
  const decisions: RateDecision[] = [];
  for (let i = 0; i < times; i++) decisions.push(await limiter.hit(org, POLICY, nowMs));
  return decisions;
}

/** `text` matched literally inside a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `name` is the store's name as its reports give it (the store table's), any text. */
export function describeRateLimiterContract(
  name: string,
  kind: LimiterKind,
  setup: () => Promise<LimiterUnderTest>,
  options: { skip?: boolean; meta?: Record<string, unknown> } = {},
): void {
  describe(`${name}: the rate limiter contract`, options, () => {
    let under: LimiterUnderTest;
    let serial = 0;
    /** An organization no other case has counted for (a shared store outlives each case). */
    const org = () => `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-org-${++serial}-${process.pid}`;
    const unavailable = new RegExp(
      `^rate limiter: ${literal(name)} unavailable \\(.+\\); counting in each instance's memory`,
    );
    const availableAgain = new RegExp(`^rate limiter: ${literal(name)} available again; counting in ${literal(name)}$`);
    beforeAll(async () => {
      under = await setup();
    });
    afterAll(() => under?.dispose?.());
    /** An instance whose deadline never passes unless the case brings one it passes. */
    const make = (reports?: string[], wait = manualDeadlines().wait) => under.make(reports, wait);

    test("counts to the limit and refuses just past it", async () => {
      const decisions = await hits(make(), org(), 4);
      expect(decisions.map(summary)).toEqual([
        [true, 2, 50],
        [true, 1, 50],
        [true, 0, 50],
        [false, 0, 50],
      ]);
      for (const d of decisions) expect(d).toMatchObject({ limit: 3, windowSeconds: 60 });
    });

    test(
      "windows: the first millisecond resets in the whole window, the last in 1 s, the next counts " + "afresh",
      async () => {
        const limiter = make();
        const id = org();
        const at = async (nowMs: number) => summary(await limiter.hit(id, POLICY, nowMs));
        expect(await at(WINDOW_START)).toEqual([true, 2, 60]);
        expect(await at(WINDOW_START + 59_999)).toEqual([true, 1, 1]);
        expect(await at(WINDOW_START + 60_000)).toEqual([true, 2, 60]);
      },
    );

    test("organizations and window lengths count apart", async () => {
      const limiter = make();
      const [a, b] = [org(), org()];
      await hits(limiter, a, 3);
      expect(summary(await limiter.hit(b, POLICY, T0))).toEqual([true, 2, 50]);
      expect(summary(await limiter.hit(a, { requests: 3, windowSeconds: 30 }, T0))).toEqual([true, 2, 20]);
      expect((await limiter.hit(a, POLICY, T0)).allowed).toBe(false);
    });

    test("RateLimit, RateLimit-Policy and Retry-After agree with the count", async () => {
      const id = org();
      const key = `cl_contract_${id}`;
      const access = staticAccess(
        JSON.stringify({
          organizations: [{ id, entitlements: [{ plan: "paid", status: "active" }], rateLimit: POLICY }],
          keys: [{ id: "k", organization: id, sha256: createHash("sha256").update(key).digest("hex"), revoked: false }],
        }),
      );
      const limiter = make();
      const fields = [];
      for (let i = 0; i < 4; i++) {
        const admission = await admit(`Bearer ${key}`, access, limiter, new Date(T0));
        const headers = addCallerHeaders({ ...admission.refusal?.headers }, { requestId: "r", rate: admission.rate });
        fields.push([
          admission.refusal?.status,
          headers.ratelimit,
          headers["ratelimit-policy"],
          headers["retry-after"],
        ]);
      }
      expect(fields).toEqual([
        [undefined, '"org";r=2;t=50', '"org";q=3;w=60', undefined],
        [undefined, '"org";r=1;t=50', '"org";q=3;w=60', undefined],
        [undefined, '"org";r=0;t=50', '"org";q=3;w=60', undefined],
        [429, '"org";r=0;t=50', '"org";q=3;w=60', "50"],
      ]);
    });

    if (!kind.shared)
      test("each instance counts alone (per instance: decision: rate limits)", async () => {
        const [a, b] = [make(), make()];
        const id = org();
        await hits(a, id, 3);
        expect(summary(await b.hit(id, POLICY, T0))).toEqual([true, 2, 50]);
        expect((await a.hit(id, POLICY, T0)).allowed).toBe(false);
      });

    if (kind.shared) {
      /** The store, which a shared limiter has. */
      const store = () => under.store!;

      test("two instances share one count: the limit holds across them, at the bound and just past it", async () => {
        const [a, b] = [make(), make()];
        const id = org();
        const decisions = [];
        for (const instance of [a, b, a, b]) decisions.push(await instance.hit(id, POLICY, T0));
        expect(decisions.map(summary)).toEqual([
          [true, 2, 50],
          [true, 1, 50],
          [true, 0, 50],
          [false, 0, 50],
        ]);
      });

      test("a failing store: exactly the memory limiter's decisions, and one report", async () => {
        const reports: string[] = [];
        const limiter = make(reports);
        const id = org();
        // Connected first (a fresh instance may wait for its first connection), then the store fails.
        await limiter.hit(org(), POLICY, T0);
        await store().break();
        try {
          const memory = memoryRateLimiter();
          for (let i = 0; i < 5; i++) expect(await limiter.hit(id, POLICY, T0)).toEqual(memory.hit(id, POLICY, T0));
          expect(reports).toHaveLength(1);
          expect(reports[0]).toMatch(unavailable);
        } finally {
          await store().mend();
          await store().recovered();
        }
      });

      test(
        "a store that never answers: each hit waits until its deadline, no longer, then memory's " +
          "decisions, and one report",
        async () => {
          const reports: string[] = [];
          const deadlines = manualDeadlines();
          const limiter = make(reports, deadlines.wait);
          const id = org();
          await limiter.hit(org(), POLICY, T0);
          await store().silence();
          try {
            const memory = memoryRateLimiter();
            const first = limiter.hit(id, POLICY, T0);
            // The store holds the request: without a deadline the hit would wait for ever.
            expect(await settledSoon(first)).toBe(STILL_WAITING);
            for (let i = 0; i < 5; i++) {
              const decision = i === 0 ? first : limiter.hit(id, POLICY, T0);
              deadlines.pass();
              expect(await settledSoon(decision)).toEqual(memory.hit(id, POLICY, T0));
            }
            expect(reports).toHaveLength(1);
            expect(reports[0]).toMatch(unavailable);
          } finally {
            await store().mend();
            await store().recovered();
          }
        },
      );

      test("the store back: counted there again, shared as before, and one report", async () => {
        const reports: string[] = [];
        const limiter = make(reports);
        const id = org();
        await limiter.hit(id, POLICY, T0);
        await store().break();
        await limiter.hit(id, POLICY, T0);
        await store().mend();
        await store().recovered();
        const again = await limiter.hit(id, POLICY, T0);
        const other = await make().hit(id, POLICY, T0);
        expect(other.remaining).toBe(again.remaining - 1);
        expect(reports).toEqual([expect.stringMatching(/ unavailable /), expect.stringMatching(availableAgain)]);
      });
    }
  });
}
