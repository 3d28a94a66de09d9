/**
 * The request target as the core routes it (`exchange.ts` inOriginForm, `endpoints/request-target.ts`;
 * decisions: absolute-form targets, fragments): origin-form whatever form it came in, and nothing from
 * the first `#` on, as a URL parser drops it on Vercel before the gateway or the function sees it. An
 * encoded `#` (`%23`) is data and stays.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type CoreResponse, inOriginForm } from "../api/_core/exchange.js";
import { fileAccess } from "../api/_core/gate/access.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { createHandler } from "../api/_core/handle-request.js";
import { ResponseCache } from "../api/_core/respond/response-cache.js";
import { auth, KEYS, TEST_NOW, useHttpFixture } from "./helpers/http-setup.js";

describe("the target the core routes", () => {
  test.each<[string, string, string]>([
    ["/v1/films?limit=2", "/v1/films?limit=2", "origin-form without a fragment: the same string"],
    ["/v1/films?limit=2#x", "/v1/films?limit=2", "a fragment after the query"],
    ["/v1/films?limit=2#", "/v1/films?limit=2", "an empty fragment"],
    ["/v1/films/film-1#", "/v1/films/film-1", "an empty fragment after an id"],
    ["/v1/films/film-1#x", "/v1/films/film-1", "a fragment after an id"],
    ["/v1/films#x", "/v1/films", "a fragment after a path"],
    ["/v1#x", "/v1", "a fragment after /v1"],
    ["/v1/films#?limit=2", "/v1/films", "a ? after # is the fragment's, not a query"],
    ["/v1/films?q=a#b#c", "/v1/films?q=a", "from the first # on"],
    ["/#", "/", "the root with an empty fragment"],
    ["/v1/films/a%23b", "/v1/films/a%23b", "an encoded # in an id stays"],
    ["/v1/films?q=a%23b", "/v1/films?q=a%23b", "an encoded # in a value stays"],
    ["/v1/films?q=a%23b#c", "/v1/films?q=a%23b", "an encoded # stays, the fragment after it goes"],
    ["http://listings.example/v1/films?limit=1", "/v1/films?limit=1", "absolute-form: its path and query"],
    ["http://listings.example/v1/films?limit=1#x", "/v1/films?limit=1", "absolute-form with a fragment"],
    ["HTTPS://listings.example:8443/v1/films#x", "/v1/films", "absolute-form, any case, a port"],
    ["http://listings.example#x", "/", "absolute-form without a path"],
    ["http://listings.example?limit=1#x", "/?limit=1", "absolute-form with a query and no path"],
    ["ftp://listings.example/v1/films", "ftp://listings.example/v1/films", "another scheme: left as sent (a 404)"],
  ])("%s → %s (%s)", (target, expected) => {
    expect(inOriginForm({ method: "GET", url: target, headers: {} }).url).toBe(expected);
  });
});

describe("no cache keeps a target with its fragment (decision: caches keyed by client input)", () => {
  const fixture = useHttpFixture();
  /** Each call of a ResponseCache method keyed by the request's URL: the method, its key, and whether it found one. */
  const calls: Array<[method: string, url: string, found: boolean]> = [];

  beforeAll(() => {
    const keyedByUrl = ResponseCache.prototype as unknown as Record<
      string,
      (url: string, ...rest: unknown[]) => unknown
    >;
    for (const method of ["memoOf", "rememberUrl", "composedPage", "keepComposed"]) {
      const original = keyedByUrl[method]!;
      vi.spyOn(keyedByUrl, method).mockImplementation(function (this: ResponseCache, url: string, ...rest: unknown[]) {
        const answer = original.call(this, url, ...rest);
        calls.push([method, url, answer !== undefined]);
        return answer;
      });
    }
  });
  afterAll(() => vi.restoreAllMocks());

  test("a page asked with #a and #b is kept under the target without them, which it is then served for", () => {
    const snapshots = new SnapshotSource(fixture.snapshotDir);
    const handle = createHandler({ snapshots, access: fileAccess(fixture.accessFile), now: () => TEST_NOW });
    const ask = (url: string) => handle({ method: "GET", url, headers: auth(KEYS.valid) }) as CoreResponse;
    const page = "/v1/showtimes?limit=7";
    const answers = [`${page}#a`, `${page}#b`, page, "/v1/films/film#x"].map(ask);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers[1]!.body.equals(answers[0]!.body) && answers[2]!.body.equals(answers[0]!.body)).toBe(true);
    expect(calls.filter(([, url]) => url.includes("#"))).toEqual([]);
    expect(new Set(calls.map(([, url]) => url))).toEqual(new Set([page, "/v1/films/film"]));
    // The doorkeeper keeps a page asked twice: the second ask with another fragment counts as the same URL.
    const lookups = calls.filter(([method, url]) => method === "composedPage" && url === page);
    expect(lookups.map(([, , found]) => found)).toEqual([false, false, true]);
  });
});
