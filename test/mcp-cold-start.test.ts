/**
 * The MCP code adds nothing to the cold start of a request that does not use it (decision: MCP):
 * in a fresh process the Vercel function (api/v1.ts) serves a GET of /v1 without resolving a
 * single module of api/_core/mcp/ or of the SDK; the first MCP request loads them. Checked on the
 * source as tsx runs it and on an ESM bundle of it with packages left external (as the bench's
 * function bundle is), where a static import of the SDK would be hoisted to the bundle's top. The
 * gateway (middleware.ts), which every request on Vercel passes, carries none of it at all.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { runProcess } from "./helpers/child-processes.js";
import { readFileSync } from "node:fs";

const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const GRAPH = path.join(ROOT, "test/helpers/module-graph.mjs");
const DEMO_KEY = "cl_demo_3f9a1c7e5b2d4086a1e7c9b3";

let root: string;
let bundle: string;
/** The bundle lies inside the checkout, where Node finds the packages it leaves external. */
const bundleDir = path.join(ROOT, "test/artifacts", `mcp-cold-start-${process.pid}`);

beforeAll(async () => {
  root = makeTempDir("mcp-cold-start");
  const built = await runBuild({
    dataDir: path.join(ROOT, "data"),
    output: createDiskWriter(path.join(root, "snapshot")),
    gzipWorkers: 0,
  });
  if (!built.ok) throw new Error("data/ does not build");
  bundle = path.join(bundleDir, "v1.mjs");
  await build({
    entryPoints: [path.join(ROOT, "api/v1.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outfile: bundle,
    logLevel: "warning",
  });
});

afterAll(() => {
  removeDir(root);
  removeDir(bundleDir);
});

interface Step {
  status?: number;
  modules: string[];
}

/** The module graph after import, after a GET of /v1, after an MCP call, in a fresh process. */
async function stepsOf(entry: string, loader: string[]): Promise<Record<"imported" | "v1" | "mcp", Step>> {
  const { code, stdout, stderr } = await runProcess(process.execPath, [...loader, GRAPH, entry], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      SNAPSHOT_DIR: path.join(root, "snapshot"),
      ACCESS_JSON: readFileSync(path.join(ROOT, "data/demo-access.json"), "utf8"),
      KEY: DEMO_KEY,
      LOG_LEVEL: "silent",
    },
  });
  if (code !== 0) throw new Error(`the module graph of ${entry} (exit ${code}): ${stderr}`);
  return JSON.parse(stdout.trim().split("\n").pop()!);
}

const isMcpCode = (url: string) => url.includes("/api/_core/mcp/") || url.includes("/@modelcontextprotocol/");

describe.each([
  ["the source, as tsx runs it", () => path.join(ROOT, "api/v1.ts"), [`--import=${TSX_LOADER}`]],
  ["an ESM bundle, packages external", () => bundle, []],
])("%s", (_what, entry, loader) => {
  test("a GET of /v1 loads nothing of the MCP code; the first MCP request loads it", async () => {
    const steps = await stepsOf(entry(), loader);
    expect(steps.v1.status).toBe(200);
    expect(steps.mcp.status).toBe(200);
    expect(steps.v1.modules.filter(isMcpCode)).toEqual([]);
    const loaded = steps.mcp.modules.filter(isMcpCode);
    expect(loaded).toContainEqual(expect.stringContaining("/@modelcontextprotocol/sdk/"));
    if (entry() !== bundle) expect(loaded).toContainEqual(expect.stringContaining("/api/_core/mcp/mcp-endpoint.ts"));
  });
});

test("the gateway's bundle carries none of the MCP code: it knows the path alone", async () => {
  const result = await build({
    entryPoints: [path.join(ROOT, "middleware.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    write: false,
    metafile: true,
    logLevel: "warning",
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs).toContain("api/_core/endpoints/mcp-path.ts");
  expect(inputs.filter((input) => input.startsWith("api/_core/mcp/") || input.endsWith("mcp-route.ts"))).toEqual([]);
  expect(result.outputFiles[0]!.text).not.toContain("@modelcontextprotocol");
});
