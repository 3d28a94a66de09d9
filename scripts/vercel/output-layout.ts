/**
 * What the checks of a `vercel build` output share (output.ts runs them; output-gateway.ts and
 * output-modes.ts are two of them): where the pieces are in the output, the paths they must
 * answer, and how a check reports.
 */
import { type Dirent, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Vercel's limit on a function's uncompressed size (the CLI measures it in MiB). */
export const FUNCTION_SIZE_LIMIT = 250 * 1024 * 1024;
export const FUNCTION_DIR = "functions/api/v1.func";
export const MIDDLEWARE_DIR = "functions/middleware.func";
/** Where the functions of a multi-market output are, one `<id>.func` per market (market-functions.ts). */
export const MARKET_FUNCTIONS_DIR = "functions/api/markets";
/**
 * Paths the function answers without the gateway in front: the health check, and where an MCP
 * client looks for OAuth (a 404 in the API's words: decision: MCP).
 */
export const KEYLESS_PATHS = [
  "/healthz",
  "/.well-known/oauth-protected-resource",
  "/.well-known/oauth-protected-resource/mcp",
  "/.well-known/oauth-authorization-server",
  "/.well-known/openid-configuration/mcp",
  "/register",
];
/**
 * Paths the function must answer: lists, an encoded id, the bare prefix, an unknown path (its 404
 * is the API's), MCP, the list of markets, and the keyless ones.
 */
export const ROUTED_PATHS = [
  "/v1/showtimes",
  "/v1/cinemas/a%2Fb",
  "/v1/films/x",
  "/v1/attributes",
  "/v1/places",
  "/v1",
  "/v1/nope",
  "/mcp",
  "/markets",
  "/_c/9bec71b15496768f422816239edd6a25/gzip/v1/films",
  ...KEYLESS_PATHS,
];
/** Names that only snapshot or access data have: none may be served as a static file. */
export const DATA_LIKE =
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

/**
 * Every file, folder and link under a folder, links not followed (a link is an entry of its own):
 * Node.js 24's recursive readdir follows links to folders, 20's does not, and a link's target is not
 * what the folder holds. None when the folder is missing.
 */
export function listEntries(root: string): Dirent[] {
  if (!existsSync(root)) return [];
  const entries: Dirent[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      entries.push(entry);
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
    }
  };
  walk(root);
  return entries;
}

/** An entry's path relative to `root`, with "/" separators. */
export function relativeName(root: string, entry: Dirent): string {
  return path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
}

/** Whether `file` is `dir` or under it (paths as they are, no link resolved). */
export function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** Relative paths ("/" separators) of every file under a folder, sorted, through no link; none when it is missing. */
export function listFiles(root: string): string[] {
  return listEntries(root)
    .filter((entry) => entry.isFile())
    .map((entry) => relativeName(root, entry))
    .sort();
}

export interface Route {
  src?: string;
  middlewarePath?: string;
  dest?: string;
  handle?: string;
  status?: number;
}

/** A function's files (default api/v1's): those written into its folder plus those it maps from the project. */
export function functionFiles(outputDir: string, projectDir: string, func = FUNCTION_DIR): Map<string, string> {
  const funcDir = path.join(outputDir, func);
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

/** The pieces of an output whose every file is checked: the function, each market's (if split), the middleware. */
export function pieceDirs(outputDir: string): string[] {
  const markets = listEntries(path.join(outputDir, MARKET_FUNCTIONS_DIR))
    .filter((entry) => entry.isDirectory() && entry.name.endsWith(".func"))
    .map((entry) => `${MARKET_FUNCTIONS_DIR}/${entry.name}`);
  return [FUNCTION_DIR, ...markets.sort(), MIDDLEWARE_DIR];
}
