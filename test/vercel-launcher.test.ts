/**
 * The launcher of `npm run verify:vercel` and its HTTP checks (docs/operations.md, "Deploying to
 * Vercel"), without running the Vercel CLI: api/v1.ts is bundled with esbuild into a function
 * folder shaped like vercel build's (.vc-config.json, package.json, the snapshot of data/ beside
 * the code), then served in its own process the way Vercel's Node runtime serves it.
 */
import { randomBytes } from "node:crypto";
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GATEWAY_SECRET_FILE } from "../api/_adapters/gateway-secret.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { createOpenApiDocument } from "../build/openapi/openapi.js";
import { createResponseValidator } from "../build/openapi/validate.js";
import { runBuild } from "../build/run-build.js";
import {
  DEMO_KEYS,
  HTTP_CHECKS,
  runHttpChecks,
  send,
  UNAVAILABLE_CHECK,
  type HttpCheckContext,
} from "../scripts/vercel/http-checks.js";
import { launchFunction, type LaunchedFunction } from "../scripts/vercel/launcher.js";
import { ROOT, makeTempDir, removeDir } from "./helpers/build-helpers.js";

let root: string;
let funcDir: string;
let context: Omit<HttpCheckContext, "baseUrl">;
const launched: LaunchedFunction[] = [];
const env = () => ({
  ACCESS_JSON: readFileSync(path.join(ROOT, "data/demo-access.json"), "utf8"),
  LOG_LEVEL: "silent",
});

/** Launches the function and closes it after the file's tests. */
async function launch(extraEnv: Record<string, string> = {}, routesFile?: string): Promise<LaunchedFunction> {
  const served = await launchFunction(funcDir, { ...env(), ...extraEnv }, routesFile);
  launched.push(served);
  return served;
}

beforeAll(async () => {
  root = makeTempDir("vercel-launcher");
  funcDir = path.join(root, "v1.func");
  mkdirSync(funcDir);
  const outfile = path.join(funcDir, "api/v1.js");
  await build({
    entryPoints: [path.join(ROOT, "api/v1.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "warning",
  });
  copyFileSync(path.join(ROOT, "package.json"), path.join(funcDir, "package.json"));
  writeFileSync(
    path.join(funcDir, ".vc-config.json"),
    JSON.stringify({ handler: "api/v1.js", runtime: "nodejs20.x", launcherType: "Nodejs", shouldAddHelpers: true }),
  );
  const result = await runBuild({
    dataDir: path.join(ROOT, "data"),
    output: createDiskWriter(path.join(funcDir, "snapshot")),
  });
  if (!result.ok || "markets" in result) throw new Error("data/ does not build one snapshot");
  // The secret the build would bundle beside the code (decision: gateway secret).
  const bundledSecret = randomBytes(32).toString("hex");
  mkdirSync(path.dirname(path.join(funcDir, GATEWAY_SECRET_FILE)));
  writeFileSync(path.join(funcDir, GATEWAY_SECRET_FILE), `${bundledSecret}\n`);
  const doc = createOpenApiDocument() as Record<string, any>;
  context = {
    keys: DEMO_KEYS,
    counts: result.manifest.counts,
    validator: createResponseValidator(doc),
    errorSchema: doc.components.schemas.Error,
    accessText: env().ACCESS_JSON,
    bundledSecret,
  };
});

afterAll(async () => {
  await Promise.all(launched.map((served) => served.close()));
  if (root) removeDir(root);
});

describe("a function served by the launcher", () => {
  test("passes every HTTP check, and writes nothing to stderr", async () => {
    const served = await launch();
    const results = await runHttpChecks({ ...context, baseUrl: served.url });
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results).toHaveLength(HTTP_CHECKS.length);
    expect(served.stderr()).toBe("");
  });

  test("answers 503 database_unavailable when its snapshot is missing", async () => {
    const served = await launch({ SNAPSHOT_DIR: path.join(root, "nothing-here") });
    const [result] = await runHttpChecks({ ...context, baseUrl: served.url }, [UNAVAILABLE_CHECK]);
    expect(result).toMatchObject({ ok: true });
  });

  test("runs with only the deployment's environment, in the function's folder", async () => {
    // The snapshot is found relative to the working directory, as on Vercel (/var/task).
    process.env.SNAPSHOT_DIR = path.join(root, "must-not-leak");
    try {
      const served = await launch();
      expect((await send(served.url, "/v1/attributes", { key: DEMO_KEYS.valid })).status).toBe(200);
    } finally {
      delete process.env.SNAPSHOT_DIR;
    }
  });

  test("plays the router: a named rewrite parameter reaches the function as a query, which it refuses", async () => {
    const routes = path.join(root, "named-parameter-config.json");
    const named = { src: "^/v1(?:/((?:[^/]+?)(?:/(?:[^/]+?))*))?$", dest: "/api/v1?path=$1", check: true };
    writeFileSync(routes, JSON.stringify({ version: 3, routes: [{ handle: "filesystem" }, named] }));
    const served = await launch({}, routes);
    const answer = await send(served.url, "/v1/showtimes", { key: DEMO_KEYS.valid });
    expect(answer.status).toBe(400);
    expect(answer.json().error.details).toEqual({ parameter: "path" });
  });

  test("a handler that fails to load is reported with its error, not a hang", async () => {
    writeFileSync(path.join(funcDir, "api/broken.js"), "throw new Error('module failed to load');");
    const config = path.join(funcDir, ".vc-config.json");
    const good = readFileSync(config, "utf8");
    writeFileSync(config, JSON.stringify({ ...JSON.parse(good), handler: "api/broken.js" }));
    try {
      await expect(launchFunction(funcDir, env())).rejects.toThrow(/module failed to load/);
    } finally {
      writeFileSync(config, good);
    }
  });
});
