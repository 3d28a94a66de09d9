/**
 * `npm run usage` (scripts/usage/; decision: usage): its arguments at each bound and past it, and
 * its report: rows summed by day or month, an organization's total per period, keys that name none
 * shown apart, CSV quoted as RFC 4180 asks (an invoice's lines), JSON; a store it cannot read named.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import type { UsageEntry } from "../api/_core/usage/usage-store.js";
import { memoryUsageStore } from "../api/_core/usage/usage-store.js";
import { MAX_DAYS, parseUsageArgs, UsageError, type UsageInvocation } from "../scripts/usage/args.js";
import { readUsage, UsageReadFailure } from "../scripts/usage/read-usage.js";
import { formatReport, summarize } from "../scripts/usage/report.js";
import { runUsage } from "../scripts/usage/run-usage.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";

const TODAY = new Date("2026-11-27T15:00:00Z");

describe("arguments", () => {
  test.each<[string, string[], Partial<UsageInvocation>]>([
    ["none: this month so far, by month, as a table", [], { from: "2026-11-01", to: "2026-11-27", by: "month" }],
    [
      "a month: its first and last day",
      ["--from", "2026-11", "--to", "2026-11"],
      { from: "2026-11-01", to: "2026-11-30" },
    ],
    ["February of a leap year", ["--from", "2024-02", "--to", "2024-02"], { from: "2024-02-01", to: "2024-02-29" }],
    ["February of another year", ["--from", "2026-02", "--to", "2026-02"], { from: "2026-02-01", to: "2026-02-28" }],
    ["one day", ["--from", "2026-11-27", "--to", "2026-11-27", "--by", "day"], { from: "2026-11-27", by: "day" }],
    ["the most days", ["--from", "2025-10-24", "--to", "2026-11-27"], { from: "2025-10-24", to: "2026-11-27" }],
    ["keys that name none", ["--org", ""], { organization: "" }],
    [
      "an organization and a market",
      ["--org", "acme", "--market", "default"],
      { organization: "acme", market: "default" },
    ],
    ["CSV", ["--format", "csv"], { format: "csv" }],
  ])("%s", (_what, argv, expected) => {
    expect(parseUsageArgs(argv, TODAY)).toMatchObject(expected);
  });

  test.each<[string, string[], RegExp]>([
    [
      "a day past the most",
      ["--from", "2025-10-23", "--to", "2026-11-27"],
      new RegExp(`401 days; at most ${MAX_DAYS}`),
    ],
    ["from after to", ["--from", "2026-11-28", "--to", "2026-11-27"], /--from 2026-11-28 is after --to 2026-11-27/],
    ["a day that does not exist", ["--from", "2026-02-29"], /--from must be a date YYYY-MM-DD or a month YYYY-MM/],
    ["a month that does not exist", ["--to", "2026-13"], /--to must be a date/],
    ["a date-time", ["--from", "2026-11-01T00:00:00Z"], /--from must be a date/],
    ["a period not offered", ["--by", "week"], /--by must be one of day, month, not "week"/],
    ["a format not offered", ["--format", "xml"], /--format must be one of table, csv, json/],
    ["an empty market", ["--market", ""], /--market must name a market/],
    ["an unknown option", ["--organization", "acme"], /Unknown option '--organization'/],
    ["a positional", ["acme"], /Unexpected argument 'acme'/],
  ])("refuses %s", (_what, argv, message) => {
    expect(() => parseUsageArgs(argv, TODAY)).toThrow(UsageError);
    expect(() => parseUsageArgs(argv, TODAY)).toThrow(message);
  });

  test("--help", () => {
    expect(parseUsageArgs(["--help"], TODAY)).toBe("help");
  });
});

const entry = (fields: Partial<UsageEntry>): UsageEntry => ({
  day: "2026-11-27",
  market: "default",
  organization: "acme",
  operation: "listFilms",
  outcome: "2xx",
  requests: 1,
  bytes: 10,
  ...fields,
});

const ENTRIES = [
  entry({ day: "2026-11-02", requests: 3, bytes: 30 }),
  entry({ requests: 2, bytes: 25 }),
  entry({ outcome: "304", bytes: 0 }),
  entry({ operation: "getFilm", outcome: "400-404", bytes: 7 }),
  entry({ organization: "", outcome: "400-404", bytes: 150 }),
  entry({ organization: 'Kino "Zürich", 1', requests: 1_234_567, bytes: 9_876_543_210 }),
  entry({ organization: "beta", day: "2026-10-31", operation: "cdn-netted", outcome: "cdn", requests: 0, bytes: 0 }),
];
const invocation = (fields: Partial<UsageInvocation> = {}): UsageInvocation => ({
  from: "2026-11-01",
  to: "2026-11-27",
  by: "month",
  format: "table",
  ...fields,
});

describe("the report", () => {
  test("by month: the days summed, each organization's rows in order, outcomes as listed", () => {
    expect(
      summarize(ENTRIES, "month").map((r) => [r.period, r.organization, r.operation, r.outcome, r.requests]),
    ).toEqual([
      ["2026-11", "", "listFilms", "400-404", 1],
      ["2026-11", 'Kino "Zürich", 1', "listFilms", "2xx", 1_234_567],
      ["2026-11", "acme", "getFilm", "400-404", 1],
      ["2026-11", "acme", "listFilms", "2xx", 5],
      ["2026-11", "acme", "listFilms", "304", 1],
    ]);
  });

  test("by day: each day apart", () => {
    expect(
      summarize(ENTRIES, "day")
        .filter((r) => r.organization === "acme")
        .map((r) => r.period),
    ).toEqual(["2026-11-02", "2026-11-27", "2026-11-27", "2026-11-27"]);
  });

  test("CSV: a header, one line per row, fields quoted where RFC 4180 asks, keys that name none empty", () => {
    expect(formatReport(summarize(ENTRIES, "month"), invocation(), "csv")).toBe(
      "period,market,organization,operation,outcome,requests,bytes\n" +
        "2026-11,default,,listFilms,400-404,1,150\n" +
        '2026-11,default,"Kino ""Zürich"", 1",listFilms,2xx,1234567,9876543210\n' +
        "2026-11,default,acme,getFilm,400-404,1,7\n" +
        "2026-11,default,acme,listFilms,2xx,5,55\n" +
        "2026-11,default,acme,listFilms,304,1,0\n",
    );
  });

  test("a table: aligned, each organization's total per period, keys that name none as (no key)", () => {
    const rows = summarize(
      ENTRIES.filter((e) => e.organization !== 'Kino "Zürich", 1'),
      "month",
    );
    expect(formatReport(rows, invocation(), "table")).toBe(
      [
        "PERIOD   MARKET   ORGANIZATION  OPERATION  OUTCOME  REQUESTS  BYTES",
        "2026-11  default  (no key)      listFilms  400-404         1    150",
        "2026-11  default  (no key)      (total)                    1    150",
        "2026-11  default  acme          getFilm    400-404         1      7",
        "2026-11  default  acme          listFilms  2xx             5     55",
        "2026-11  default  acme          listFilms  304             1      0",
        "2026-11  default  acme          (total)                    7     62",
        "",
      ].join("\n"),
    );
    expect(formatReport([], invocation(), "table")).toBe("no usage from 2026-11-01 to 2026-11-27\n");
  });

  test("JSON: the range, the rows and each organization's totals; keys that name none as null", () => {
    const printed = JSON.parse(formatReport(summarize(ENTRIES.slice(0, 5), "month"), invocation(), "json"));
    expect(printed).toMatchObject({ from: "2026-11-01", to: "2026-11-27", by: "month" });
    expect(printed.rows[0]).toEqual({
      period: "2026-11",
      market: "default",
      organization: null,
      operation: "listFilms",
      outcome: "400-404",
      requests: 1,
      bytes: 150,
    });
    expect(printed.totals).toEqual([
      { period: "2026-11", market: "default", organization: null, requests: 1, bytes: 150 },
      { period: "2026-11", market: "default", organization: "acme", requests: 7, bytes: 62 },
    ]);
  });
});

describe("reading", () => {
  const root = makeTempDir("usage-report");
  afterAll(() => removeDir(root));

  test("what the query asks of the store: its days, organization and market", async () => {
    const store = memoryUsageStore();
    await store.add(
      { id: "1", entries: [entry({}), entry({ organization: "beta" }), entry({ day: "2026-12-01" })] },
      new AbortController().signal,
    );
    const read = await readUsage(store, invocation({ organization: "acme" }));
    expect(read.map((r) => [r.day, r.organization])).toEqual([["2026-11-27", "acme"]]);
  });

  test("a folder whose month file is not usage's: exit 1's failure, naming the file", async () => {
    const dir = path.join(root, "broken");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "2026-11.json"), "{ not json");
    const run = runUsage(["--dir", dir], { env: {}, now: () => TODAY, stdout: () => {} });
    await expect(run).rejects.toThrow(UsageReadFailure);
    await expect(run).rejects.toThrow(`${path.join(dir, "2026-11.json")} is not a usage file`);
  });

  test("a folder with nothing yet: no usage", async () => {
    let printed = "";
    await runUsage(["--dir", path.join(root, "empty")], { env: {}, now: () => TODAY, stdout: (t) => (printed += t) });
    expect(printed).toBe("no usage from 2026-11-01 to 2026-11-27\n");
  });
});
