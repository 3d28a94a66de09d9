/**
 * Checks a `vercel build` output (.vercel/output, Build Output API v3) against the rules that
 * matter for this project: the function bundles the whole snapshot, /v1/* reaches the function
 * untouched, static/ holds only the public documentation, the bundle fits Vercel's limit and holds
 * no link out of it (output-bundle.ts), and another user than the files' owner can read what the
 * pieces read (output-modes.ts). A multi-market snapshot is checked per market's function (output-markets.ts).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import {
  type CheckFn,
  DATA_LIKE,
  FUNCTION_DIR,
  functionFiles,
  listFiles,
  type OutputCheck,
  type OutputFacts,
  ROUTED_PATHS,
  type Route,
  routeOf,
} from "./output-layout.js";
import { checkLinks, checkSize } from "./output-bundle.js";
import { checkGatewaySecret, checkMiddleware } from "./output-gateway.js";
import { checkMarketFunctions } from "./output-markets.js";
import { checkModes } from "./output-modes.js";
import { isMarketsFolder } from "../../api/_core/format/read/markets-folder.js";

export {
  FUNCTION_DIR,
  FUNCTION_SIZE_LIMIT,
  functionFiles,
  listFiles,
  MIDDLEWARE_DIR,
  ROUTED_PATHS,
  routeOf,
} from "./output-layout.js";
export type { CheckFn, OutputCheck, OutputFacts, Route } from "./output-layout.js";

/** The function of a single-market snapshot bundles all of it; returns how many of its files it does. */
function checkWholeSnapshot(files: Map<string, string>, snapshotDir: string, check: CheckFn): number {
  const expected = listFiles(snapshotDir);
  const missing = expected.filter((f) => {
    const bundled = files.get(`snapshot/${f}`);
    return !bundled || !existsSync(bundled) || statSync(bundled).size !== statSync(path.join(snapshotDir, f)).size;
  });
  const detail = missing.length
    ? `missing or different: ${missing.slice(0, 5).join(", ")}`
    : `${expected.length} files`;
  check("it bundles the whole snapshot", expected.length > 0 && missing.length === 0, detail);
  return expected.length - missing.length;
}

/** Runs every check; never throws for a broken output, so all problems are reported at once. */
export function checkVercelOutput(
  outputDir: string,
  projectDir: string,
  publicDir: string,
  snapshotDir: string,
): { checks: OutputCheck[]; facts: OutputFacts } {
  const checks: OutputCheck[] = [];
  const check: CheckFn = (name, ok, detail) => checks.push({ name, ok, detail });
  const facts: OutputFacts = { functionBytes: 0, snapshotFiles: 0, staticFiles: [] };

  const configFile = path.join(outputDir, "config.json");
  const routes = existsSync(configFile)
    ? ((JSON.parse(readFileSync(configFile, "utf8")) as { routes?: Route[] }).routes ?? [])
    : [];
  const markets = isMarketsFolder(snapshotDir);
  const funcConfig = path.join(outputDir, FUNCTION_DIR, ".vc-config.json");
  check("the function api/v1 is built", existsSync(funcConfig), FUNCTION_DIR);
  const files = existsSync(funcConfig) ? functionFiles(outputDir, projectDir) : new Map<string, string>();
  if (existsSync(funcConfig)) {
    const config = JSON.parse(readFileSync(funcConfig, "utf8")) as {
      handler?: string;
      runtime?: string;
      launcherType?: string;
    };
    check(
      "it runs on Vercel's Node.js runtime",
      /^nodejs\d+/.test(config.runtime ?? "") && config.launcherType === "Nodejs",
      `${config.runtime} ${config.launcherType}`,
    );
    check("its handler file is in the bundle", files.has(config.handler ?? ""), config.handler ?? "(none)");
    if (!markets) facts.snapshotFiles = checkWholeSnapshot(files, snapshotDir, check);
    facts.functionBytes = checkSize(files, check);
    checkGatewaySecret(outputDir, files, check);
  }
  // A multi-market snapshot is bundled one market per function (market-functions.ts), checked as such.
  if (markets) facts.snapshotFiles = checkMarketFunctions(outputDir, projectDir, snapshotDir, routes, check);

  const staticDir = path.join(outputDir, "static");
  facts.staticFiles = listFiles(staticDir);
  const dataLike = facts.staticFiles.filter((f) => DATA_LIKE.test(f) || f.startsWith("v1/") || f === "v1");
  check("static/ holds nothing data-like", dataLike.length === 0, dataLike.length ? dataLike.join(", ") : "none");
  const published = new Set(listFiles(publicDir));
  const stray = facts.staticFiles.filter(
    (f) => !published.has(f) || !readFileSync(path.join(staticDir, f)).equals(readFileSync(path.join(publicDir, f))),
  );
  const exact = stray.length === 0 && facts.staticFiles.length === published.size;
  check(
    "static/ is exactly public/ (the documentation)",
    exact,
    stray.length ? `not from public/: ${stray.join(", ")}` : facts.staticFiles.join(", "),
  );

  const misrouted = ROUTED_PATHS.map((p) => [p, routeOf(routes, p)] as const).filter(([, dest]) => dest !== "/api/v1");
  // An exact "/api/v1": a named rewrite parameter would be appended as ?path=…, which the strict query parser refuses.
  check(
    "/v1/* routes to the function, with no query added",
    misrouted.length === 0,
    misrouted.length ? misrouted.map(([p, d]) => `${p} → ${d}`).join(", ") : "/api/v1",
  );
  checkMiddleware(outputDir, snapshotDir, routes, check);
  checkModes(outputDir, files, check);
  checkLinks(outputDir, check);
  return { checks, facts };
}
