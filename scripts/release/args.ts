/** Arguments of `npm run release`, checked before anything is built (decision: prebuilt releases). */
import { parseArgs } from "node:util";

export const USAGE = `usage: npm run release -- --data DIR [--state DIR] [--prod] [--dry-run] [--first] [--force]
                      [--fail-if-removed-over P%] [--keep-past-days N]
  --data DIR                 the provider's data folder (cinemas/, films/, showtimes/, attributes/)
  --state DIR                the last release's snapshot and record, never committed (default .release)
  --prod                     a production deployment (without it: a preview)
  --dry-run                  build, diff and run vercel build, then say what would be uploaded; deploy nothing
                             (needs no Vercel account: with no project linked, vercel build uses local settings)
  --first                    the first production release: no earlier one to diff against or carry history from
  --force                    deploy even when the snapshot is the one last released (after a code change)
  --fail-if-removed-over P%  stop (exit 4) when a resource loses more than P% of its records (default 20%)
  --keep-past-days N         keep showtimes that started up to N days back, from 00:00 UTC (1..30, default 1)
exit: 0 released, nothing new, or dry run done; 1 invalid data; 2 usage or state problem;
      3 a Vercel step failed or its output failed the checks; 4 too much removed. --state changes only on 0.`;

export const DEFAULT_STATE_DIR = ".release";
export const DEFAULT_REMOVED_PERCENT = 20;
export const DEFAULT_KEEP_PAST_DAYS = 1;

export interface ReleaseOptions {
  dataDir: string;
  stateDir: string;
  prod: boolean;
  dryRun: boolean;
  first: boolean;
  force: boolean;
  /** The diff's --fail-if-removed-over, in percent. */
  removedPercent: number;
  keepPastDays: number;
}

/** A mistake in how the command was called: one line and exit status 2. */
export class UsageError extends Error {}

function parsePercent(text: string): number {
  const match = /^(\d{1,3}(?:\.\d+)?)%?$/.exec(text);
  const value = match ? Number(match[1]) : Number.NaN;
  if (!(value >= 0 && value <= 100))
    throw new UsageError(
      `--fail-if-removed-over must be a percentage from 0% to 100%, such as 20%, not ${JSON.stringify(text)}`,
    );
  return value;
}

function parseDays(text: string): number {
  const value = /^\d{1,2}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= 30))
    throw new UsageError(`--keep-past-days must be a whole number from 1 to 30, not ${JSON.stringify(text)}`);
  return value;
}

function readValues(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        data: { type: "string" },
        state: { type: "string", default: DEFAULT_STATE_DIR },
        prod: { type: "boolean", default: false },
        "dry-run": { type: "boolean", default: false },
        first: { type: "boolean", default: false },
        force: { type: "boolean", default: false },
        "fail-if-removed-over": { type: "string" },
        "keep-past-days": { type: "string" },
        help: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    // node:util adds lines of hints; one line is enough.
    throw new UsageError((error as Error).message.split("\n")[0]!);
  }
}

/** Parses argv (without node and the script); returns "help" for --help. */
export function parseReleaseArgs(argv: string[]): ReleaseOptions | "help" {
  const values = readValues(argv);
  if (values.help) return "help";
  if (values.data === undefined) throw new UsageError("--data DIR is required: the provider's data folder");
  if (values.data === "" || values.state === "") throw new UsageError("--data and --state must not be empty");
  if (values.first && !values.prod)
    throw new UsageError("--first is for the first production release: add --prod (a preview needs no --first)");
  const removed = values["fail-if-removed-over"];
  const keep = values["keep-past-days"];
  return {
    dataDir: values.data,
    stateDir: values.state!,
    prod: values.prod!,
    dryRun: values["dry-run"]!,
    first: values.first!,
    force: values.force!,
    removedPercent: removed === undefined ? DEFAULT_REMOVED_PERCENT : parsePercent(removed),
    keepPastDays: keep === undefined ? DEFAULT_KEEP_PAST_DAYS : parseDays(keep),
  };
}
