/**
 * What the checks of a `vercel build` output share (output.ts runs them; output-gateway.ts and
 * output-modes.ts are two of them): where the pieces are in the output, the paths they must
 * answer, and how a check reports.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

/** Vercel's limit on a function's uncompressed size (the CLI measures it in MiB). */
export const FUNCTION_SIZE_LIMIT = 250 * 1024 * 1024;
export const FUNCTION_DIR = "functions/api/v1.func";
export const MIDDLEWARE_DIR = "functions/middleware.func";
/**
 * Paths the function must answer: lists, an encoded id, the bare prefix, an unknown path (its 404
 * is the API's), MCP.
 */
export const ROUTED_PATHS = [
  "/v1/showtimes",
  "/v1/cinemas/a%2Fb",
  "/v1/films/x",
  "/v1/attributes",
  "/v1",
  "/v1/nope",
  "/healthz",
  "/mcp",
  "/_c/9bec71b15496768f422816239edd6a25/gzip/v1/films",
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
