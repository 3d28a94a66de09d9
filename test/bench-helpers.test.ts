/**
 * The bench's own helpers (docs/performance.md, "Method"): its command-line values, the even spread
 * of feed pages it serves, the days a cinema's date is asked for, how it walks the changes feed,
 * the figures its targets are checked on, and the distinct place questions it asks. No timing is
 * measured here.
 */
import { describe, expect, test } from "vitest";
import { spreadEvenly } from "../scripts/bench/feed-scenario.js";
import { walkFeed } from "../scripts/bench/feed-walk.js";
import { catchUpBound, previousCost } from "../scripts/bench/history-report.js";
import { MAX_HISTORY_DAYS, parseHistory, parseSize } from "../scripts/bench/options.js";
import { placeQuestions } from "../scripts/bench/place-questions.js";
import { relativeCpu } from "../scripts/bench/report.js";
import { datesBetween } from "../scripts/bench/scenarios.js";
import type { ScenarioFigures } from "../scripts/bench/serve-step.js";

describe("command-line values", () => {
  test.each([
    ["20k", 20_000],
    ["200K", 200_000],
    ["2M", 2_000_000],
    ["1.5m", 1_500_000],
    ["3000", 3000],
  ])("size %s is %d showtimes", (text, size) => expect(parseSize(text)).toBe(size));

  test.each(["", "2G", "-1k", "k", "0", "2 M"])("size %j is refused", (text) =>
    expect(() => parseSize(text)).toThrow(/bad size/),
  );

  test("--history takes SIZE:DAYS items, days from 1 to the bound", () => {
    expect(parseHistory("200k:30,2M:3")).toEqual([
      { showtimes: 200_000, days: 30 },
      { showtimes: 2_000_000, days: 3 },
    ]);
    expect(parseHistory(`20k:1,20k:${MAX_HISTORY_DAYS}`).map((h) => h.days)).toEqual([1, MAX_HISTORY_DAYS]);
  });

  test.each(["200k:0", `200k:${MAX_HISTORY_DAYS + 1}`, "200k", "200k:3:1", "200k:x", "200k:3,", "x:3"])(
    "--history %j is refused",
    (text) => expect(() => parseHistory(text)).toThrow(/bad (--history item|size)/),
  );
});

describe("scenario helpers", () => {
  test.each([
    [5, 5, [0, 1, 2, 3, 4]],
    [5, 9, [0, 1, 2, 3, 4]],
    [10, 3, [0, 5, 9]],
    [10, 2, [0, 9]],
    [10, 1, [0]],
    [0, 3, []],
  ])("%d items spread to %d keep the first and the last", (length, n, picked) =>
    expect(
      spreadEvenly(
        Array.from({ length }, (_, i) => i),
        n,
      ),
    ).toEqual(picked),
  );

  test("the days between two minutes are every UTC date from the first one's to the last one's", () => {
    const minute = (iso: string) => Date.parse(iso) / 60_000;
    expect(datesBetween(minute("2026-12-01T10:00Z"), minute("2026-12-01T23:59Z"))).toEqual(["2026-12-01"]);
    expect(datesBetween(minute("2026-12-30T23:59Z"), minute("2027-01-01T00:00Z"))).toEqual([
      "2026-12-30",
      "2026-12-31",
      "2027-01-01",
    ]);
  });
});

describe("walking the changes feed", () => {
  const page = (data: number, next: string | null, token: string | null) =>
    Buffer.from(JSON.stringify({ data: Array(data).fill({}), pagination: { nextCursor: next }, syncToken: token }));

  test("it follows nextCursor from the first page and counts requests, changes and the largest body", async () => {
    const pages = new Map([
      ["/v1/changes?limit=2", page(2, "c1", null)],
      ["/v1/changes?limit=2&cursor=c1", page(2, "c2", null)],
      ["/v1/changes?limit=2&cursor=c2", page(1, null, "t")],
    ]);
    const walk = await walkFeed(async (url) => pages.get(url)!, "/v1/changes?limit=2");
    expect(walk).toEqual({
      pageUrls: [...pages.keys()],
      changes: 5,
      largestBytes: Math.max(...[...pages.values()].map((b) => b.length)),
      token: "t",
    });
  });

  test("a last page without a syncToken is a failure, not a figure", async () => {
    await expect(walkFeed(async () => page(0, null, null), "/v1/changes")).rejects.toThrow(/no syncToken/);
  });
});

describe("target figures", () => {
  test.each([
    [0, 1],
    [1, 2],
    [5000, 2],
    [5001, 3],
    [10_000, 3],
  ])("a catch-up of %d changes at limit 5000 may take %d requests", (changes, bound) =>
    expect(catchUpBound(changes, 5000)).toBe(bound),
  );

  test("what --previous adds is the median build with it less the median without", () => {
    expect(previousCost({ withPrevious: [10, 30, 12], withoutPrevious: [8, 9] })).toBeCloseTo(12 - 8.5);
  });

  test("a relative target compares the scenario's CPU with the one it names in the same run", () => {
    const figure = (name: string, cpu: number) =>
      ({
        name,
        ours: { cpuPerRequestUs: cpu },
        ceiling: { cpuPerRequestUs: 40 },
        cpuRatio: 40 / cpu,
      }) as ScenarioFigures;
    const run = [figure("composed by cinema, uncached", 200), figure("cinema + date, uncached", 230)];
    expect(relativeCpu(run, "cinema + date, uncached")).toBeCloseTo(1.15);
    expect(relativeCpu(run.slice(1), "cinema + date, uncached")).toBeUndefined();
    expect(relativeCpu(run, "composed by cinema, uncached")).toBeUndefined();
  });

  test.each<[string, number, number[], number]>([
    ["no paired rounds: the first pass's ratio", 230, [], 1.15],
    ["two paired rounds: the median of three", 230, [2.4, 1.3], 1.3],
    ["one paired round: the mean of the middle two", 230, [1.35], 1.25],
    ["a first pass far above the rounds does not move it", 440, [1.1, 1.2], 1.2],
  ])("a relative figure measured in rounds, %s", (_what, cpu, paired, expected) => {
    const run = [
      { name: "composed by cinema, uncached", ours: { cpuPerRequestUs: 200 } },
      { name: "cinema + date, uncached", ours: { cpuPerRequestUs: cpu }, pairedRatios: paired },
    ] as ScenarioFigures[];
    expect(relativeCpu(run, "cinema + date, uncached")).toBeCloseTo(expected);
  });
});

describe("place questions (decision: places)", () => {
  const cinemas = [
    ["London", "GB"],
    ["London", "GB"],
    ["Ely", "GB"],
    ["Köln", "DE"],
  ].map(([locality, countryCode]) => Buffer.from(JSON.stringify({ location: { locality, countryCode } })));
  const lists = { cinemas: { length: cinemas.length, records: { entry: (i: number) => cinemas[i]! } } };

  test("each locality whole or its first 3 to 8 letters, with its country or not, at each limit: all distinct", () => {
    let n = 0;
    const questions = placeQuestions(lists as never, (k) => n++ % k, 15, 5);
    // London, Lon, Lond, Londo; Ely; Köln, Köl: 7 texts, with and without the country, 11 limits.
    expect(questions).toHaveLength(7 * 2 * 11);
    expect(new Set(questions.map((q) => JSON.stringify(q))).size).toBe(questions.length);
    expect(new Set(questions.map((q) => q.q))).toEqual(
      new Set(["London", "Lon", "Lond", "Londo", "Ely", "Köln", "Köl"]),
    );
    expect(new Set(questions.map((q) => q.limit))).toEqual(new Set([5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]));
    for (const q of questions) if (q.countryCode) expect(q.countryCode).toBe(q.q.startsWith("K") ? "DE" : "GB");
  });
});
