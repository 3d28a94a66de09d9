/** Arguments of `npm run diff`, validated before any folder is opened. */
import { parseArgs } from "node:util";

export const USAGE =
  "usage: npm run diff -- --from DIR --to DIR [--json] [--max-changes N] [--fail-if-removed-over P%]";

export const DEFAULT_MAX_CHANGES = 20;

export interface DiffOptions {
  from: string;
  to: string;
  json: boolean;
  /** Changes listed per resource. */
  maxChanges: number;
  /** Percent of a resource's old records that may be removed before the diff exits 4. */
  failIfRemovedOver?: number;
}

/** A mistake in how the command was called: one line and exit status 2. */
export class UsageError extends Error {}

function parsePercent(text: string): number {
  const match = /^(\d{1,3}(?:\.\d+)?)%?$/.exec(text);
  const value = match ? Number(match[1]) : NaN;
  if (!(value >= 0 && value <= 100))
    throw new UsageError(
      `--fail-if-removed-over must be a percentage from 0% to 100%, such as 20%, not ${JSON.stringify(text)}`,
    );
  return value;
}

function parseCount(text: string): number {
  if (!/^\d{1,7}$/.test(text))
    throw new UsageError(`--max-changes must be a whole number from 0 to 9999999, not ${JSON.stringify(text)}`);
  return Number(text);
}

/** Parses argv (without node and the script); returns "help" for --help. */
export function parseDiffArgs(argv: string[]): DiffOptions | "help" {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        from: { type: "string" },
        to: { type: "string" },
        json: { type: "boolean", default: false },
        "max-changes": { type: "string" },
        "fail-if-removed-over": { type: "string" },
        help: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // node:util adds lines of hints; the rules ask for one line.
    throw new UsageError((error as Error).message.split("\n")[0]!);
  }
  if (values.help) return "help";
  for (const name of ["from", "to"] as const) {
    if (values[name] === undefined) throw new UsageError(`--${name} DIR is required`);
    if (values[name] === "") throw new UsageError(`--${name} must not be empty`);
  }
  const removed = values["fail-if-removed-over"];
  return {
    from: values.from!,
    to: values.to!,
    json: values.json!,
    maxChanges: values["max-changes"] === undefined ? DEFAULT_MAX_CHANGES : parseCount(values["max-changes"]),
    ...(removed === undefined ? {} : { failIfRemovedOver: parsePercent(removed) }),
  };
}
