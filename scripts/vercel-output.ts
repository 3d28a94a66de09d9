/**
 * Checks a `vercel build` output (.vercel/output, Build Output API v3) against the rules that
 * matter for this project: the function bundles the whole snapshot, /v1/* reaches the function
 * untouched, static/ holds only the public documentation, the bundle fits Vercel's limit, and
 * another user than the files' owner can read what the pieces read (vercel-output-modes.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { checkGatewaySecret, checkMiddleware } from "./vercel-output-gateway.js";
import { checkModes } from "./vercel-output-modes.js";

/** Vercel's limit on a function's uncompressed size (the CLI measures it in MiB). */
export const FUNCTION_SIZE_LIMIT = 250 * 1024 * 1024;
export const FUNCTION_DIR = "functions/api/v1.func";
export const MIDDLEWARE_DIR = "functions/middleware.func";
/** Paths the function must answer: lists, an encoded id, the bare prefix, an unknown path (its 404 is the API's). */
export const ROUTED_PATHS = [
  "/v1/showtimes",
  "/v1/cinemas/a%2Fb",
  "/v1/films/x",
  "/v1/attributes",
  "/v1",
  "/v1/nope",
  "/healthz",
  "/_c/9bec71b15496768f422816239edd6a25/gzip/v1/films",
];
/** Names that only snapshot or access data have: none may be served as a static file. */
const DATA_LIKE =
  /(^|\/)snapshot[^/]*\/|\.(blocks|pages|index|bin|idx|ndjson)$|(^|\/)(manifest|[^/]*access[^/]*)\.json$/;

export interface OutputCheck {
  ok: boolean;
  name: string;
  detail: string;
}

export type CheckFn = (name: string, ok: boolean, detail: string) => void;

export interface OutputFacts {
  functionBytes: number;
  snapshotFiles: number;
  staticFiles: string[];
}

/** Relative paths ("/" separators) of every file under a folder, sorted; none when it is missing. */
export function listFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

export interface Route {
  src?: string;
  middlewarePath?: string;
  dest?: string;
  handle?: string;
  status?: number;
}

/** The function's files: those written into its folder plus those it maps from the project. */
function functionFiles(outputDir: string, projectDir: string): Map<string, string> {
  const funcDir = path.join(outputDir, FUNCTION_DIR);
  const files = new Map<string, string>();
  for (const file of listFiles(funcDir)) files.set(file, path.join(funcDir, file));
  const config = JSON.parse(readFileSync(path.join(funcDir, ".vc-config.json"), "utf8")) as {
    filePathMap?: Record<string, string>;
  };
  for (const [bundled, source] of Object.entries(config.filePathMap ?? {}))
    files.set(bundled, path.join(projectDir, source));
  return files;
}

/** Where a path goes after the filesystem phase, following config.json's routes in order. */
export function routeOf(routes: Route[], pathname: string): string | undefined {
  const afterFilesystem = routes.slice(routes.findIndex((r) => r.handle === "filesystem") + 1);
  for (const route of afterFilesystem) {
    if (route.handle) break;
    if (route.src && new RegExp(route.src).test(pathname)) return route.dest ?? `status ${route.status}`;
  }
  return undefined;
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
    const expected = listFiles(snapshotDir);
    const missing = expected.filter((f) => {
      const bundled = files.get(`snapshot/${f}`);
      return !bundled || !existsSync(bundled) || statSync(bundled).size !== statSync(path.join(snapshotDir, f)).size;
    });
    facts.snapshotFiles = expected.length - missing.length;
    const detail = missing.length
      ? `missing or different: ${missing.slice(0, 5).join(", ")}`
      : `${expected.length} files`;
    check("it bundles the whole snapshot", expected.length > 0 && missing.length === 0, detail);
    facts.functionBytes = [...files.values()].reduce(
      (sum, file) => sum + (existsSync(file) ? statSync(file).size : 0),
      0,
    );
    check(
      "its uncompressed size is under 250 MB",
      facts.functionBytes < FUNCTION_SIZE_LIMIT,
      `${(facts.functionBytes / 1e6).toFixed(1)} MB`,
    );
    checkGatewaySecret(outputDir, files, check);
  }

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

  const configFile = path.join(outputDir, "config.json");
  const routes = existsSync(configFile)
    ? ((JSON.parse(readFileSync(configFile, "utf8")) as { routes?: Route[] }).routes ?? [])
    : [];
  const misrouted = ROUTED_PATHS.map((p) => [p, routeOf(routes, p)] as const).filter(([, dest]) => dest !== "/api/v1");
  // An exact "/api/v1": a named rewrite parameter would be appended as ?path=…, which the strict query parser refuses.
  check(
    "/v1/* routes to the function, with no query added",
    misrouted.length === 0,
    misrouted.length ? misrouted.map(([p, d]) => `${p} → ${d}`).join(", ") : "/api/v1",
  );
  checkMiddleware(outputDir, snapshotDir, routes, check);
  checkModes(outputDir, files, check);
  return { checks, facts };
}
