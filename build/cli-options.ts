/**
 * The build command's flags, in one table: the parser's options, the usage line and `--help` all
 * come from it, so no flag the parser accepts goes undescribed (test/build-cli.test.ts).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { checkDateTime } from "../api/_core/format/primitives/date-time.js";
import { MANIFEST_FILE, MARKETS_INDEX_FILE } from "../api/_core/format/primitives/files.js";
import type { DropBefore } from "./localize/drop-before.js";
import { DEFAULT_KEEP } from "./build-types.js";

interface Flag {
  type: "string" | "boolean";
  /** The parser's default, shown as "(default …)". */
  default?: string;
  /** What the value is, in the usage line and --help. */
  value?: string;
  help: string;
}

export const BUILD_FLAGS = {
  data: {
    type: "string",
    default: "data",
    value: "DIR",
    help:
      "The data folder. The build reads attributes/, cinemas/, films/ and showtimes/ at any depth: JSON arrays " +
      "(*.json) and one record per line (*.ndjson, or *.jsonl). Any other file there is a problem " +
      "(unsupported_file). An optional markets.json beside them defines markets: one snapshot per market " +
      "(docs/operations.md). Anything else in the folder is not read, and the report names it.",
  },
  out: {
    type: "string",
    default: "snapshot",
    value: "DIR",
    help:
      "Where the snapshot goes (with markets: a folder per market and markets.json): written in a folder " +
      "beside it, then swapped in whole. A snapshot already there is the previous one (its history carried, " +
      "as with --previous DIR) unless --previous or --new-history says otherwise.",
  },
  previous: {
    type: "string",
    value: "DIR",
    help:
      "The snapshot in service: the new one carries its changes history forward, so stored sync tokens keep " +
      "working, and drops no earlier than it did; with markets, each market carries DIR/<id>'s. (default: the " +
      "snapshot --out holds, if any)",
  },
  "new-history": {
    type: "boolean",
    help:
      "Begin a new changes history at generation 0, whatever --out holds: every stored sync token then gets " +
      "a 410 and a full copy. Not with --previous.",
  },
  "drop-before": {
    type: "string",
    value: "DATE-TIME",
    help:
      "Leave out showtimes that start before this instant (with a zone: 2026-11-24T06:00:00Z). Never earlier " +
      "than the previous snapshot's. (default: the previous snapshot's, or none)",
  },
  check: {
    type: "boolean",
    help:
      "Check the data only: the same problems, report (but the history) and exit codes, and nothing written: " +
      "no snapshot, no staging folder.",
  },
  "keep-generations": {
    type: "string",
    default: String(DEFAULT_KEEP.generations),
    value: "N",
    help: "The history keeps at least the last N generations (1 to 99999).",
  },
  "keep-days": {
    type: "string",
    default: String(DEFAULT_KEEP.days),
    value: "N",
    help: "The history keeps at least every generation built within N days of the newest (0 to 9999).",
  },
  "gzip-level": {
    type: "string",
    default: "6",
    value: "1..9",
    help: "How hard the stored response bodies are compressed: 9 smallest, 1 fastest.",
  },
  "gzip-workers": {
    type: "string",
    value: "0..8",
    help:
      "Threads that compress the bodies; 0 keeps the whole build on one thread. (default: one per core the " +
      "machine offers)",
  },
  quiet: { type: "boolean", help: "No progress lines on stderr (problems and warnings are still printed)." },
  help: { type: "boolean", help: "Print this text and exit." },
} as const satisfies Record<string, Flag>;

type FlagName = keyof typeof BUILD_FLAGS;
const FLAG_NAMES = Object.keys(BUILD_FLAGS) as FlagName[];

const flagOf = (name: FlagName) => {
  const flag: Flag = BUILD_FLAGS[name];
  return flag.value === undefined ? `--${name}` : `--${name} ${flag.value}`;
};

export const USAGE = `usage: npm run build -- ${FLAG_NAMES.map((name) => `[${flagOf(name)}]`).join(" ")}`;

/** Words of `text` in lines of at most `width` characters, each after `indent`. */
function wrap(text: string, indent: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.map((l) => `${indent}${l}`).join("\n");
}

/** `--help`: the usage line, what the command does and its exit codes, then every flag. */
export function helpText(): string {
  const flags = FLAG_NAMES.map((name) => {
    const flag: Flag = BUILD_FLAGS[name];
    const help = flag.default === undefined ? flag.help : `${flag.help} (default ${flag.default})`;
    return `  ${flagOf(name)}\n${wrap(help, "      ", 90)}`;
  });
  return [
    USAGE,
    "",
    wrap(
      "Validates the data folder's records and compiles them into a snapshot (docs/operations.md). Exit 0: " +
        "built (or checked); 1: invalid data, every problem listed and nothing written; 2: bad usage, or a " +
        "failure such as an unreadable --previous.",
      "",
      96,
    ),
    "",
    ...flags,
    "",
  ].join("\n");
}

/** A command line the build refuses: exit 2 with the message and the usage line. */
export class UsageError extends Error {}

export interface BuildCliOptions {
  dataDir: string;
  outDir: string;
  previous?: string;
  newHistory: boolean;
  dropBefore?: DropBefore;
  check: boolean;
  keep: { generations: number; days: number };
  gzipLevel: number;
  gzipWorkers?: number;
  quiet: boolean;
}

function parse(args: string[]) {
  const options = Object.fromEntries(
    FLAG_NAMES.map((name) => {
      const flag: Flag = BUILD_FLAGS[name];
      return [name, flag.type === "string" ? { type: "string", default: flag.default } : { type: "boolean" }];
    }),
  ) as Record<FlagName, { type: "string"; default?: string } | { type: "boolean" }>;
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as Partial<
      Record<FlagName, string | boolean>
    >;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function checked(ok: boolean, message: string): void {
  if (!ok) throw new UsageError(message);
}

function dropBeforeOf(text: string | undefined): DropBefore | undefined {
  if (text === undefined) return undefined;
  const check = checkDateTime(text);
  if (!check.ok)
    throw new UsageError(
      `--drop-before must be a date-time with a zone, such as 2026-11-24T06:00:00Z (${check.reason})`,
    );
  return { text, key: check.instantKey };
}

/** The build's options from its command line, or "help" (asked for, whatever else is given); throws UsageError. */
export function readBuildOptions(args: string[]): BuildCliOptions | "help" {
  const values = parse(args);
  if (values.help === true) return "help";
  const text = (name: FlagName) => values[name] as string | undefined;
  const level = text("gzip-level")!;
  checked(/^[1-9]$/.test(level), "--gzip-level must be a whole number from 1 to 9");
  checked(text("data") !== "" && text("out") !== "", "--data and --out must not be empty");
  const workers = text("gzip-workers");
  checked(workers === undefined || /^[0-8]$/.test(workers), "--gzip-workers must be a whole number from 0 to 8");
  const dropBefore = dropBeforeOf(text("drop-before"));
  const [generations, days] = [text("keep-generations")!, text("keep-days")!];
  checked(
    /^[0-9]{1,5}$/.test(generations) && Number(generations) >= 1,
    "--keep-generations must be a whole number from 1 to 99999",
  );
  checked(/^[0-9]{1,4}$/.test(days), "--keep-days must be a whole number from 0 to 9999");
  checked(text("previous") !== "", "--previous must not be empty");
  const newHistory = values["new-history"] === true;
  checked(
    !(newHistory && text("previous") !== undefined),
    "--new-history begins a history and --previous carries one: give one of them",
  );
  return {
    dataDir: text("data")!,
    outDir: text("out")!,
    previous: text("previous"),
    newHistory,
    dropBefore,
    check: values.check === true,
    keep: { generations: Number(generations), days: Number(days) },
    gzipLevel: Number(level),
    gzipWorkers: workers === undefined ? undefined : Number(workers),
    quiet: values.quiet === true,
  };
}

/**
 * The snapshot whose history the build carries: --previous, else the one --out holds, so a rebuild
 * in place keeps its mirrors' sync tokens (decision: changes feed); none with --new-history.
 */
export function previousSnapshotOf(options: Pick<BuildCliOptions, "previous" | "newHistory" | "outDir">) {
  if (options.previous !== undefined || options.newHistory) return options.previous;
  // A snapshot, or a multi-market folder whose markets each carry their own history (decision: markets).
  const complete = [MANIFEST_FILE, MARKETS_INDEX_FILE].some((file) => existsSync(path.join(options.outDir, file)));
  return complete ? options.outDir : undefined;
}
