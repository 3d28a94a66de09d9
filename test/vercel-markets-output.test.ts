/**
 * One function per market in a `vercel build` output (decision: markets, deployed per market), on
 * small fake outputs: the split gives each market a function bundling its own snapshot alone and
 * routes its snapshot id's internal path there, leaves a single-market output as it was, and the
 * output checks name each market's function that is missing, mixed with another market, or over 250 MB.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  symlinkSync,
} from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { encodeMarketsIndex } from "../api/_core/format/layout/markets-index.js";
import { GATEWAY_SECRET_FILE } from "../api/_adapters/gateway-secret.js";
import { marketFunctionDir, marketFunctionsIn, splitFunctionByMarket } from "../scripts/vercel/market-functions.js";
import { checkMarketFunctions } from "../scripts/vercel/output-markets.js";
import {
  checkVercelOutput,
  FUNCTION_DIR,
  FUNCTION_SIZE_LIMIT,
  type OutputCheck,
  type Route,
  routeOf,
} from "../scripts/vercel/output.js";
import { hashTree, listFiles, makeTempDir, removeDir, writeFiles } from "./helpers/build-helpers.js";

const GB = { id: "gb", name: "United Kingdom", countries: ["GB"], snapshotId: "a1".repeat(16) };
const DACH = {
  id: "dach",
  name: "Germany, Austria, Switzerland",
  countries: ["DE", "AT", "CH"],
  snapshotId: "b2".repeat(16),
};
const MARKET_SNAPSHOT = { "manifest.json": '{"format":3}', "records.blocks": "rec", "index.pages": "idx" };
const SNAPSHOT: Record<string, string> = {
  "markets.json": encodeMarketsIndex({ format: 1, markets: [GB, DACH] }).toString(),
  ...Object.fromEntries(Object.entries(MARKET_SNAPSHOT).map(([f, text]) => [`gb/${f}`, `gb ${text}`])),
  ...Object.fromEntries(Object.entries(MARKET_SNAPSHOT).map(([f, text]) => [`dach/${f}`, `dach ${text}`])),
};
/** The routes `vercel build` writes for vercel.json, as far as the internal path goes. */
const ROUTES: Route[] = [
  { handle: "filesystem" },
  { src: "^/v1(?:/(.*))$", dest: "/api/v1" },
  { src: "^/_c(?:/(.*))$", dest: "/api/v1" },
  { src: "^/api(/.*)?$", status: 404 },
];
const FUNCTION_CONFIG = { handler: "api/v1.js", runtime: "nodejs20.x", launcherType: "Nodejs" };

let root: string;
const out = (relative = "") => path.join(root, "output", relative);
const snapshotDir = () => path.join(root, "snapshot");
const routes = () => (JSON.parse(readFileSync(out("config.json"), "utf8")) as { routes: Route[] }).routes;
const bundled = (func: string) => listFiles(out(func)).filter((f) => f.startsWith("snapshot/"));
function checks(): OutputCheck[] {
  const found: OutputCheck[] = [];
  checkMarketFunctions(out(), root, snapshotDir(), routes(), (name, ok, detail) => found.push({ name, ok, detail }));
  return found;
}
const failing = () => checks().filter((c) => !c.ok);

/** A file of `bytes` that takes no disk space (sparse). */
function writeSparse(file: string, bytes: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, "w");
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

/** An output as `vercel build --standalone` writes it: the function holds the snapshot folder whole. */
function writeOutput(snapshot: Record<string, string>): void {
  writeFiles(snapshotDir(), snapshot);
  writeFiles(out(), { "config.json": JSON.stringify({ version: 3, routes: ROUTES }) });
  writeFiles(out(FUNCTION_DIR), {
    ".vc-config.json": JSON.stringify(FUNCTION_CONFIG),
    "api/v1.js": "export default () => {}",
    ...Object.fromEntries(Object.entries(snapshot).map(([f, text]) => [`snapshot/${f}`, text])),
    [GATEWAY_SECRET_FILE]: `${"7c".repeat(32)}\n`,
  });
}

beforeEach(() => {
  root = makeTempDir("vercel-markets-output");
});
afterEach(() => removeDir(root));

describe("splitFunctionByMarket", () => {
  test("each market's function bundles its own snapshot and the index, the first function no market's", () => {
    writeOutput(SNAPSHOT);
    expect(splitFunctionByMarket(out(), snapshotDir()).map((m) => m.id)).toEqual(["gb", "dach"]);
    expect(bundled(marketFunctionDir("gb"))).toEqual([
      "snapshot/gb/index.pages",
      "snapshot/gb/manifest.json",
      "snapshot/gb/records.blocks",
      "snapshot/markets.json",
    ]);
    expect(bundled(marketFunctionDir("dach"))).toContain("snapshot/dach/manifest.json");
    expect(bundled(FUNCTION_DIR)).toEqual(["snapshot/markets.json"]);
    for (const func of [marketFunctionDir("gb"), FUNCTION_DIR]) {
      expect(existsSync(out(`${func}/api/v1.js`))).toBe(true);
      expect(existsSync(out(`${func}/${GATEWAY_SECRET_FILE}`))).toBe(true);
    }
    expect(failing()).toEqual([]);
    expect(marketFunctionsIn(out())).toEqual({
      "/api/markets/dach": "functions/api/markets/dach.func",
      "/api/markets/gb": "functions/api/markets/gb.func",
    });
    expect(checks().map((c) => c.name)).toContain(
      "market gb: its function (functions/api/markets/gb.func) is under 250 MB",
    );
  });

  test.each([
    [`/_c/${GB.snapshotId}/gzip/v1/films`, "/api/markets/gb"],
    [`/_c/${GB.snapshotId}/identity/v1/cinemas/a%2Fb`, "/api/markets/gb"],
    [`/_c/${DACH.snapshotId}/br/v1/showtimes`, "/api/markets/dach"],
    [`/_c/${"c3".repeat(16)}/gzip/v1/films`, "/api/v1"],
    [`/_c/${GB.snapshotId}x/gzip/v1/films`, "/api/v1"],
    ["/v1/films", "/api/v1"],
  ])("the internal path %s routes to %s", (pathname, dest) => {
    writeOutput(SNAPSHOT);
    splitFunctionByMarket(out(), snapshotDir());
    expect(routeOf(routes(), pathname)).toBe(dest);
  });

  test("files mapped from the project (filePathMap, without --standalone) are split as the bundled ones", () => {
    writeOutput(SNAPSHOT);
    const filePathMap = Object.fromEntries(Object.keys(SNAPSHOT).map((f) => [`snapshot/${f}`, `snapshot/${f}`]));
    writeFiles(out(FUNCTION_DIR), {
      ".vc-config.json": JSON.stringify({ ...FUNCTION_CONFIG, filePathMap }),
      "snapshot/gb/manifest.json": "",
    });
    removeDir(out(`${FUNCTION_DIR}/snapshot`));
    splitFunctionByMarket(out(), snapshotDir());
    const mapped = (func: string) =>
      Object.keys(
        (JSON.parse(readFileSync(out(`${func}/.vc-config.json`), "utf8")) as { filePathMap: object }).filePathMap,
      );
    expect(mapped(marketFunctionDir("dach")).sort()).toEqual([
      "snapshot/dach/index.pages",
      "snapshot/dach/manifest.json",
      "snapshot/dach/records.blocks",
      "snapshot/markets.json",
    ]);
    expect(mapped(FUNCTION_DIR)).toEqual(["snapshot/markets.json"]);
    expect(failing()).toEqual([]);
  });

  test("a single-market output is left byte for byte as the build wrote it", () => {
    writeOutput({ "manifest.json": '{"format":3}', "records.blocks": "rec" });
    const before = hashTree(out());
    expect(splitFunctionByMarket(out(), snapshotDir())).toEqual([]);
    expect(hashTree(out())).toEqual(before);
    expect(marketFunctionsIn(out())).toEqual({});
  });

  test("an output already split is refused, naming a market's function, and left as it was", () => {
    writeOutput(SNAPSHOT);
    splitFunctionByMarket(out(), snapshotDir());
    const once = hashTree(out());
    expect(() => splitFunctionByMarket(out(), snapshotDir())).toThrow(
      "functions/api/markets/gb.func exists: this output is already split by market",
    );
    expect(hashTree(out())).toEqual(once);
  });
});

describe("checkMarketFunctions", () => {
  test("an output not split names each market's missing function and the markets the first one bundles", () => {
    writeOutput(SNAPSHOT);
    expect(failing().map((c) => c.name)).toEqual([
      "market gb: its function is built",
      "market dach: its function is built",
      "the function api/v1 bundles no market's snapshot",
    ]);
    expect(failing()[2]!.detail).toBe(
      "snapshot/dach/index.pages, snapshot/dach/manifest.json, snapshot/dach/records.blocks, " +
        "snapshot/gb/index.pages, snapshot/gb/manifest.json, and 1 more",
    );
  });

  test("a market's function over the limit is named, with its largest parts; the other market's passes", () => {
    writeOutput(SNAPSHOT);
    splitFunctionByMarket(out(), snapshotDir());
    writeSparse(out(`${marketFunctionDir("dach")}/snapshot/dach/showtimes.blocks`), FUNCTION_SIZE_LIMIT);
    expect(failing()).toEqual([
      {
        name: "market dach: its function (functions/api/markets/dach.func) is under 250 MB",
        ok: false,
        detail: "262.1 MB; the largest: snapshot 262.1 MB, .vc-config.json 0.0 MB, generated 0.0 MB",
      },
    ]);
  });

  test("a market's function holding another market's files, or missing its own, is named with the files", () => {
    writeOutput(SNAPSHOT);
    splitFunctionByMarket(out(), snapshotDir());
    writeFiles(out(marketFunctionDir("gb")), {
      "snapshot/dach/records.blocks": "dach rec",
      "snapshot/gb/index.pages": "",
    });
    expect(failing().map((c) => [c.name, c.detail])).toEqual([
      [
        "market gb: its function bundles its whole snapshot and the markets index",
        "missing or different: gb/index.pages",
      ],
      ["market gb: its function bundles no other market's snapshot", "snapshot/dach/records.blocks"],
    ]);
  });

  test("a market whose snapshot id no route sends to its function is named with where the path goes", () => {
    writeOutput(SNAPSHOT);
    splitFunctionByMarket(out(), snapshotDir());
    writeFiles(out(), { "config.json": JSON.stringify({ version: 3, routes: ROUTES }) });
    expect(failing().map((c) => [c.name, c.detail])).toEqual([
      [
        "market gb: the internal path of its snapshot routes to its function",
        `/_c/${GB.snapshotId}/gzip/v1/films → /api/v1`,
      ],
      [
        "market dach: the internal path of its snapshot routes to its function",
        `/_c/${DACH.snapshotId}/gzip/v1/films → /api/v1`,
      ],
    ]);
  });

  test("an index that cannot be read is one failed check, not a throw", () => {
    writeOutput({ ...SNAPSHOT, "markets.json": "{" });
    expect(failing().map((c) => c.name)).toEqual(["the snapshot's markets index can be read"]);
  });

  test("verify:vercel's output checks run them for a multi-market snapshot, not the whole-snapshot check", () => {
    writeOutput(SNAPSHOT);
    splitFunctionByMarket(out(), snapshotDir());
    writeSparse(out(`${marketFunctionDir("gb")}/snapshot/gb/showtimes.blocks`), FUNCTION_SIZE_LIMIT);
    const { checks: all, facts } = checkVercelOutput(out(), root, path.join(root, "public"), snapshotDir());
    const names = all.map((c) => c.name);
    expect(names).not.toContain("it bundles the whole snapshot");
    expect(names).toContain("the function api/v1 bundles no market's snapshot");
    expect(all.find((c) => c.name.startsWith("market gb: its function ("))?.ok).toBe(false);
    expect(all.find((c) => c.name === "its uncompressed size is under 250 MB")?.ok).toBe(true);
    expect(facts.snapshotFiles).toBe(6);
  });

  test("the modes and links checks walk each market's function too, naming its files", () => {
    writeOutput(SNAPSHOT);
    splitFunctionByMarket(out(), snapshotDir());
    chmodSync(out(`${marketFunctionDir("dach")}/snapshot/dach/records.blocks`), 0o600);
    symlinkSync("/", out(`${marketFunctionDir("gb")}/root`));
    const { checks: all } = checkVercelOutput(out(), root, path.join(root, "public"), snapshotDir());
    const detail = (start: string) => all.find((c) => c.name.startsWith(start))?.detail;
    expect(detail("every file the function and the middleware read")).toContain(
      "functions/api/markets/dach.func/snapshot/dach/records.blocks",
    );
    expect(detail("every link in the function and the middleware")).toContain("functions/api/markets/gb.func/root → /");
  });
});
