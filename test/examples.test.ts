/**
 * Every curl example of the README and of the docs page returns what it promises on the demo
 * data (decision: a demo that is always current): the demo made current for a fixed "today"
 * (two of them, one in summer time), each example run against it with today's date where the
 * example asks for `$(date -u +%F)`, and every list answering some records, every get-one its record.
 * An example of markets (`/markets`, `/gb/v1/...`) is run against the same demo built as two
 * markets, gb and dach (decision: markets).
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { staticAccess } from "../api/_core/gate/access.js";
import { MarketsSource } from "../api/_core/format/read/markets-source.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { routeMarket } from "../api/_core/endpoints/market-path.js";
import { createHandler, type Handler } from "../api/_core/handle-request.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { writeCurrentDemo } from "../scripts/demo/demo-folder.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";

const DEMO_KEY = "cl_demo_3f9a1c7e5b2d4086a1e7c9b3";
/** The demo's countries as markets, for the examples of a deployment with markets. */
const DEMO_MARKETS = [
  { id: "gb", name: "United Kingdom", countries: ["GB"] },
  { id: "dach", name: "Germany, Austria, Switzerland", countries: ["DE", "AT", "CH"] },
];

/** The request target of each curl example in a text (HTML entities and markup already undone). */
function curlTargets(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.trimStart().startsWith("curl "))
    .map((line) => {
      const quoted = [...line.matchAll(/(["'])(.*?)\1/g)].map((m) => m[2]!);
      const target = quoted.find((q) => q.startsWith("$API") || q.startsWith("http://"));
      if (!target) throw new Error(`an example without a target: ${line}`);
      return target;
    });
}

const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
const page = readFileSync(path.join(ROOT, "public/index.html"), "utf8")
  .replace(/<[^>]+>/g, "")
  .replace(/&lt;/g, "<")
  .replace(/&gt;/g, ">")
  .replace(/&amp;/g, "&");

/** Shell code blocks of the README (what a reader pastes). */
const readmeShell = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).join("\n");

const EXAMPLES = [
  ...curlTargets(readmeShell).map((t) => ["README", t] as const),
  ...curlTargets(page).map((t) => ["docs page", t] as const),
];

/** The example's target as a request path, with the variables the examples set. */
function requestPath(target: string, today: string): string {
  return target
    .replace(/^\$API/, "/v1")
    .replace(/^http:\/\/localhost:3000/, "")
    .replace(/\$\{TODAY\}|\$TODAY/g, today);
}

describe.each(["2027-07-14", "2028-01-10"])("the examples on the demo made current for %s", (today) => {
  let root: string;
  let handle: Handler;
  let withMarkets: Handler;

  beforeAll(async () => {
    root = makeTempDir("examples-");
    const data = path.join(root, "data");
    mkdirSync(data);
    writeCurrentDemo(path.join(ROOT, "data"), data, today);
    const built = await runBuild({
      dataDir: data,
      output: createDiskWriter(path.join(root, "snapshot")),
      gzipWorkers: 0,
    });
    expect(built.ok).toBe(true);
    if (built.ok) expect(built.report.warnings, "the current demo's offsets agree with its zones").toEqual([]);
    const access = staticAccess(readFileSync(path.join(ROOT, "data/demo-access.json"), "utf8"), "demo");
    const now = () => new Date(`${today}T12:00:00Z`);
    handle = createHandler({ snapshots: new SnapshotSource(path.join(root, "snapshot")), access, now });
    const marketData = path.join(root, "data-markets");
    cpSync(data, marketData, { recursive: true });
    writeFileSync(path.join(marketData, "markets.json"), JSON.stringify(DEMO_MARKETS));
    const markets = path.join(root, "markets");
    expect((await runBuild({ dataDir: marketData, output: createDiskWriter(markets), gzipWorkers: 0 })).ok).toBe(true);
    const folder = { markets: new MarketsSource(markets) };
    withMarkets = createHandler({ snapshots: new SnapshotSource(markets), folder, access, now });
  });
  afterAll(() => removeDir(root));

  async function get(url: string) {
    const route = routeMarket(url, undefined);
    const server = route.to === "list" || (route.to === "market" && !route.byDefault) ? withMarkets : handle;
    const response = await server({ method: "GET", url, headers: { authorization: `Bearer ${DEMO_KEY}` } });
    return { status: response.status, body: JSON.parse(Buffer.from(response.body).toString()) };
  }

  test("there are examples, the headline one among them", () => {
    expect(EXAMPLES.length).toBeGreaterThan(10);
    expect(EXAMPLES.some(([, t]) => t.includes("attributeIds=format-imax"))).toBe(true);
  });

  test.each(EXAMPLES)("%s: %s", async (_where, target) => {
    let url = requestPath(target, today);
    if (url.includes("<nextCursor>")) {
      const first = await get(url.replace(/&cursor=<nextCursor>/, ""));
      expect(first.body.pagination.nextCursor, "the first page has a next page").not.toBeNull();
      url = url.replace("<nextCursor>", first.body.pagination.nextCursor);
    }
    const { status, body } = await get(url);
    expect(status, JSON.stringify(body)).toBe(200);
    if (Array.isArray(body.data)) expect(body.data.length, "a list example promises records").toBeGreaterThan(0);
    else expect(body.data.id).toBeTypeOf("string");
    if (url.includes("attributeIds=format-imax"))
      for (const showtime of body.data) {
        expect(showtime.attributeIds).toContain("format-imax");
        expect(showtime.startsAt.slice(0, 10)).toBe(today);
        expect(showtime.distanceKm).toBeLessThanOrEqual(5);
        expect(showtime.cinema.location.timeZone).toBe("Europe/London");
      }
  });
});
