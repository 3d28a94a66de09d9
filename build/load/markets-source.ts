/**
 * The data folder's markets.json, when it holds one (decision: markets): read and parsed here, its
 * rules checked by validation (validate/markets.ts). Without it the build makes one snapshot, as
 * it always did.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Problem } from "../report/problems.js";

/** Where a data folder defines its markets, beside the resource folders. */
export const MARKETS_SOURCE = "markets.json";

export interface MarketsSource {
  file: string;
  /** The file's JSON, not yet checked. */
  value: unknown;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Turns a JSON.parse message's character position into a 1-based line, when it gives one. */
function lineOfPosition(text: string, message: string): number | undefined {
  const match = /position (\d+)/.exec(message);
  return match ? text.slice(0, Number(match[1])).split("\n").length : undefined;
}

/**
 * The data folder's markets.json parsed, or undefined when it has none (a folder by that name is
 * not read: the report names it). A file that cannot be read or parsed is a problem, and the build
 * stops on it: data meant for markets is never built as one snapshot.
 */
export function loadMarketsSource(dataDir: string, problems: Problem[]): MarketsSource | undefined {
  const file = path.join(dataDir, MARKETS_SOURCE);
  if (!isFile(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "read error";
    problems.push({ code: "unreadable_file", file, path: "", message: `could not be read (${reason})` });
    return undefined;
  }
  try {
    return { file, value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    problems.push({
      code: "invalid_market",
      file,
      line: lineOfPosition(text, message),
      path: "",
      message: `is not valid JSON (${message})`,
    });
    return undefined;
  }
}
