/**
 * `npm run verify:vercel`: the Vercel deployment, verified without deploying.
 * Runs `vercel build` offline (scripts/vercel/vercel-build.ts, which makes the bundles readable by
 * other users whatever the umask), checks .vercel/output (scripts/vercel/output.ts), then serves the
 * built middleware and function as Vercel's Node runtime would (scripts/vercel/launcher.ts)
 * behind a stand-in for the platform's router and CDN cache (scripts/vercel/platform.ts), and
 * runs the MCP checks (scripts/vercel/mcp-checks.ts) once and the HTTP checks
 * (scripts/vercel/http-checks.ts) twice in each forwarding mode: the second
 * pass must come from the cache; in fetch mode, no request reaches a host a client names
 * (scripts/vercel/origin-check.ts). Exit 0 when everything passes, 1 otherwise. It builds in a working
 * copy of its own in a temporary folder (scripts/vercel/working-copy.ts), removed after: the checkout's
 * snapshot/, generated/ and .vercel/ are never written (decision: prebuilt releases).
 *
 * With --markets it splits the demo data into markets gb and de (a markets.json in the working copy's
 * data/) and runs the checks of a deployment with markets instead (scripts/vercel/market-checks.ts).
 *
 *     npm run verify:vercel [-- --skip-build]   (--skip-build: check the checkout's existing .vercel/output)
 *     npm run verify:vercel -- --markets
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { GATEWAY_SECRET_FILE } from "../api/_adapters/gateway-secret.js";
import { createResponseValidator } from "../build/openapi/validate.js";
import {
  CLOSED_CHECK,
  DEMO_KEYS,
  runHttpChecks,
  UNAVAILABLE_CHECK,
  type HttpCheckContext,
  type HttpCheckResult,
} from "./vercel/http-checks.js";
import { launchFunction } from "./vercel/launcher.js";
import { DEMO_MARKETS, marketsAccess, runMarketChecks } from "./vercel/market-checks.js";
import { marketFunctionsIn } from "./vercel/market-functions.js";
import { MCP_CHECKS } from "./vercel/mcp-checks.js";
import { FIXED_ORIGIN_CHECK } from "./vercel/origin-check.js";
import { checkVercelOutput, FUNCTION_DIR, MIDDLEWARE_DIR } from "./vercel/output.js";
import { startPlatform, type Platform, type PlatformEvent } from "./vercel/platform.js";
import { copyProjectLink, writeLocalSettings } from "./vercel/project.js";
import { describeOpened, runVercelBuild } from "./vercel/vercel-build.js";
import { makeWorkingCopy } from "./vercel/working-copy.js";

/** The checkout: what is copied, and only read. */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUTPUT_DIR = ".vercel/output";

function report(results: HttpCheckResult[]): boolean {
  for (const r of results) process.stdout.write(`${r.ok ? "✓" : "✖"} ${r.name}${r.detail ? ` — ${r.detail}` : ""}\n`);
  return results.every((r) => r.ok);
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/**
 * A working copy of the checkout in `work`, with the linked project's settings (never its pulled
 * secrets), or local ones when no project is linked (scripts/vercel/project.ts).
 */
function prepareWorkingCopy(work: string): void {
  const copy = makeWorkingCopy(ROOT, work);
  const modules = copy.linked ? "node_modules linked" : "node_modules copied (another file system than the checkout)";
  process.stdout.write(`working copy: ${work} (${copy.files} files of the checkout, ${modules})\n`);
  const linked = copyProjectLink(ROOT, work);
  if (!linked) writeLocalSettings(work);
  process.stdout.write(
    linked
      ? "project settings: the linked project's (.vercel/project.json)\n"
      : "project settings: local (no project linked)\n",
  );
}

/** The middleware, the function and the platform in front of them, as one deployment. */
async function launchDeployment(output: string, env: Record<string, string>, mode: string): Promise<Deployment> {
  const routes = path.join(output, "config.json");
  const fn = await launchFunction(path.join(output, FUNCTION_DIR), env, routes);
  // An output split per market (market-functions.ts): each market's function too, routed by its path.
  const markets = Object.entries(marketFunctionsIn(output));
  const marketFns = await Promise.all(markets.map(([, dir]) => launchFunction(path.join(output, dir), env, routes)));
  const functionUrls = markets.length
    ? Object.fromEntries([["/api/v1", fn.url], ...markets.map(([route], i) => [route, marketFns[i]!.url])])
    : fn.url;
  const config = JSON.parse(readFileSync(routes, "utf8")) as { routes: [] };
  // Whether Vercel looks at the client's own request (with its key) for a rewritten one is open:
  // rewrite mode can only cache if it does not; fetch mode must cache either way, so it is
  // checked under that stricter reading.
  let middlewareUrl = "";
  const platform = await startPlatform(config.routes, () => middlewareUrl, functionUrls, {
    bypassOnClientRequest: mode === "fetch",
  });
  // Fetch mode forwards to the deployment's fixed origin, here the platform (decision: gateway origin).
  const origin: Record<string, string> = mode === "fetch" ? { GATEWAY_ORIGIN: platform.url } : {};
  const middleware = await launchFunction(path.join(output, MIDDLEWARE_DIR), { ...env, GATEWAY_MODE: mode, ...origin });
  middlewareUrl = middleware.url;
  return {
    platform,
    stderr: () => [fn, ...marketFns, middleware].map((piece) => piece.stderr()).join(""),
    close: async () => {
      await platform.close();
      await Promise.all([fn, ...marketFns, middleware].map((piece) => piece.close()));
    },
  };
}

interface Deployment {
  platform: Platform;
  stderr(): string;
  close(): Promise<void>;
}

/**
 * The HTTP checks twice through the deployment: the second pass must come from the cache for
 * every 200 (no function call), with each response's own request id and rate-limit fields.
 */
function checkCachedPass(
  mode: string,
  first: PlatformEvent[],
  second: PlatformEvent[],
  calls: number,
): HttpCheckResult[] {
  const isPublic = (e: PlatformEvent) => e.url.startsWith("/v1");
  const ok200 = second.filter((e) => e.status === 200 && isPublic(e));
  const missed = ok200.filter((e) => e.served !== "HIT");
  const ids = [...first, ...second].filter(isPublic).map((e) => e.requestId);
  const repeated = ids.filter((id, i) => id === undefined || ids.indexOf(id) !== i);
  const hitsWithoutRate = ok200.filter((e) => !e.rateLimit);
  const firstRates = new Set(first.filter(isPublic).map((e) => e.rateLimit));
  const staleRates = ok200.filter((e) => firstRates.has(e.rateLimit));
  const misses = second.filter((e) => e.cache === "MISS" || e.cache === "BYPASS").length;
  return [
    {
      name: `${mode}: the second pass serves every 200 from the CDN cache`,
      ok: ok200.length > 0 && missed.length === 0,
      detail: missed.length
        ? `not cached: ${missed
            .map((e) => e.url)
            .slice(0, 5)
            .join(", ")}`
        : `${ok200.length} hits`,
    },
    {
      name: `${mode}: a cache hit invokes no function`,
      ok: calls === misses,
      detail: `${calls} function calls in the second pass, ${misses} misses (errors and 304s)`,
    },
    {
      name: `${mode}: every response has its own request id and rate-limit fields`,
      ok: repeated.length === 0 && hitsWithoutRate.length === 0 && staleRates.length === 0,
      detail: repeated.length
        ? `repeated or missing ids: ${repeated.slice(0, 3).join(", ")}`
        : staleRates.length
          ? `a hit repeats a first-pass RateLimit: ${staleRates[0]!.rateLimit}`
          : `${ids.length} distinct ids`,
    },
  ];
}

async function checkServedDeployment(output: string, counts: HttpCheckContext["counts"]): Promise<HttpCheckResult[]> {
  // The OpenAPI document that would be deployed beside the function.
  const doc = JSON.parse(readFileSync(path.join(output, "static/openapi.json"), "utf8"));
  const accessText = readFileSync(path.join(ROOT, "data/demo-access.json"), "utf8");
  const base = {
    keys: DEMO_KEYS,
    counts,
    validator: createResponseValidator(doc),
    errorSchema: doc.components.schemas.Error,
    accessText,
    bundledSecret: readFileSync(path.join(output, MIDDLEWARE_DIR, GATEWAY_SECRET_FILE), "utf8").trim(),
  };
  const env = { ACCESS_JSON: accessText, LOG_LEVEL: "silent" };
  const results: HttpCheckResult[] = [];
  let stderr = "";
  for (const mode of ["rewrite", "fetch"]) {
    const deployment = await launchDeployment(output, env, mode);
    try {
      const { platform } = deployment;
      const label = (r: HttpCheckResult) => ({ ...r, name: `${mode}: ${r.name}` });
      results.push(...(await runHttpChecks({ ...base, baseUrl: platform.url })).map(label));
      results.push(...(await runHttpChecks({ ...base, baseUrl: platform.url }, MCP_CHECKS)).map(label));
      const first = platform.events.splice(0);
      const callsBefore = platform.functionCalls();
      results.push(
        ...(await runHttpChecks({ ...base, baseUrl: platform.url })).map((r) =>
          label({ ...r, name: `again: ${r.name}` }),
        ),
      );
      results.push(...checkCachedPass(mode, first, platform.events, platform.functionCalls() - callsBefore));
      if (mode === "fetch")
        results.push(...(await runHttpChecks({ ...base, baseUrl: platform.url }, [FIXED_ORIGIN_CHECK])).map(label));
    } finally {
      await deployment.close();
      stderr += deployment.stderr();
    }
  }
  // A deployment whose snapshot went missing must answer the documented 503, not crash.
  const empty = mkdtempSync(path.join(tmpdir(), "verify-vercel-"));
  const unavailable = await launchDeployment(output, { ...env, SNAPSHOT_DIR: empty }, "rewrite");
  try {
    results.push(...(await runHttpChecks({ ...base, baseUrl: unavailable.platform.url }, [UNAVAILABLE_CHECK])));
  } finally {
    await unavailable.close();
    stderr += unavailable.stderr();
    rmSync(empty, { recursive: true, force: true });
  }
  // A GATEWAY_SECRET too short to be safe: both pieces keep the internal path closed.
  const closed = await launchDeployment(output, { ...env, GATEWAY_SECRET: "too-short" }, "rewrite");
  try {
    results.push(...(await runHttpChecks({ ...base, baseUrl: closed.platform.url }, [CLOSED_CHECK])));
  } finally {
    await closed.close();
    stderr += closed.stderr();
  }
  results.push({
    name: "the middleware and the function wrote nothing to stderr",
    ok: stderr === "",
    detail: stderr.trim().slice(0, 300),
  });
  return results;
}

/** A deployment with markets, in each forwarding mode, through the stand-in (market-checks.ts). */
async function checkMarketsDeployment(output: string): Promise<HttpCheckResult[]> {
  const accessText = marketsAccess(readFileSync(path.join(ROOT, "data/demo-access.json"), "utf8"));
  const results: HttpCheckResult[] = [];
  let stderr = "";
  for (const mode of ["rewrite", "fetch"]) {
    const deployment = await launchDeployment(output, { ACCESS_JSON: accessText, LOG_LEVEL: "silent" }, mode);
    try {
      const checks = await runMarketChecks(deployment.platform.url, deployment.platform, DEMO_KEYS.valid);
      results.push(...checks.map((r) => ({ ...r, name: `${mode}: ${r.name}` })));
    } finally {
      await deployment.close();
      stderr += deployment.stderr();
    }
  }
  results.push({ name: "the middleware and the functions wrote nothing to stderr", ok: !stderr, detail: stderr });
  return results;
}

/** The output's checks, then the HTTP checks of the built pair; the exit status. */
async function verifyOutput(project: string, started: number, markets = false): Promise<number> {
  const output = path.join(project, OUTPUT_DIR);
  const checksStarted = performance.now();
  const snapshot = path.join(project, "snapshot");
  const { checks, facts } = checkVercelOutput(output, project, path.join(project, "public"), snapshot);
  const outputOk = report(checks);
  if (!checks[0]!.ok) return 1;
  const manifest = markets
    ? undefined
    : JSON.parse(readFileSync(path.join(output, FUNCTION_DIR, "snapshot/manifest.json"), "utf8"));
  const httpOk = report(
    manifest ? await checkServedDeployment(output, manifest.counts) : await checkMarketsDeployment(output),
  );
  process.stdout.write(
    `\nfunction ${(facts.functionBytes / 1e6).toFixed(1)} MB with ${facts.snapshotFiles} snapshot files; ` +
      `static: ${facts.staticFiles.join(", ")}\n` +
      `checks ${seconds(checksStarted)}, total ${seconds(started)}\n`,
  );
  if (!outputOk || !httpOk) {
    process.stderr.write("verify:vercel: FAILED\n");
    return 1;
  }
  process.stdout.write("verify:vercel: OK\n");
  return 0;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { "skip-build": { type: "boolean", default: false }, markets: { type: "boolean", default: false } },
    strict: true,
  });
  const started = performance.now();
  if (values["skip-build"]) return verifyOutput(ROOT, started);
  const work = mkdtempSync(path.join(tmpdir(), "verify-vercel-"));
  try {
    prepareWorkingCopy(work);
    if (values.markets) writeFileSync(path.join(work, "data/markets.json"), JSON.stringify(DEMO_MARKETS));
    process.stdout.write("vercel build …\n");
    const built = runVercelBuild(work);
    if (!built.ok) {
      process.stderr.write(built.message);
      return built.code;
    }
    process.stdout.write(`vercel build done in ${seconds(started)}${describeOpened(built.opened)}\n`);
    return await verifyOutput(work, started, values.markets);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`verify:vercel: ${(error as Error).message}\n`);
    process.exitCode = 2;
  },
);
