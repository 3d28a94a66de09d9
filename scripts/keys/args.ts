/** Arguments of `npm run keys`: one command, each option checked before the access file is touched. */
import { parseArgs } from "node:util";
import { MAX_AGE_MS } from "../../api/_adapters/edge-config-access.js";
import { checkDate, checkDateTime } from "../../api/_core/format/primitives/date-time.js";
import { parseMarketsOption, type MarketsOption } from "./markets-option.js";

/**
 * How soon a push is in force on every instance: none uses a copy older than MAX_AGE_MS
 * (decision: revocation in seconds). The help, the push's confirmation and the docs say this figure.
 */
export const PUSH_IN_FORCE = `within ${MAX_AGE_MS / 1000} s`;

export const USAGE = `usage: npm run keys -- (--access FILE | --demo) [--push] <command>
  create --org ID [--expires DATE] [--id KEY_ID]   new key, printed once as the last line
  revoke KEY_ID                                    the key stops working at once
  list                                             organizations and keys (never the keys themselves)
  org set ID --plan PLAN --status STATUS [--from DATE] --until DATE [--markets IDS|all]
  org rate-limit ID --requests N --window SECONDS
  pull                                             bring the file up to date with Edge Config's item (merged)
DATE is YYYY-MM-DD (midnight UTC) or a date-time such as 2027-01-01T00:00:00Z.
--markets gb,dach: the plan covers those markets only; all: every market (the default for a new plan);
without --markets, org set keeps the markets the plan covered.
--access FILE is the access file to read and change (created, with its folder, if it does not exist);
--demo uses the committed demo file, data/demo-access.json, instead.
--push also writes the access file (changed or not) to the deployment's Edge Config, in force
${PUSH_IN_FORCE} without a redeploy, unless another copy of the file pushed since this one was last
pulled or pushed: then nothing changes, and pull comes first. --push and pull need EDGE_CONFIG
(or EDGE_CONFIG_ID) and VERCEL_API_TOKEN.`;

export const DEFAULT_ACCESS_FILE = "data/demo-access.json";

export type KeysCommand =
  | { name: "create"; org: string; expiresAt?: string; keyId?: string }
  | { name: "revoke"; keyId: string }
  | { name: "list" }
  | {
      name: "org-set";
      org: string;
      plan: string;
      status: string;
      validFrom?: string;
      validUntil: string;
      /** Absent: the markets the plan covered stay (a new plan: every market). */
      markets?: MarketsOption;
    }
  | { name: "org-rate-limit"; org: string; requests: number; windowSeconds: number }
  | { name: "pull" };

export interface KeysInvocation {
  accessFile: string;
  command: KeysCommand;
  /** Write the result to Edge Config too. */
  push: boolean;
}

/** A mistake in how the command was called: one line and exit status 2. */
export class UsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;

const OPTIONS = ["org", "expires", "id", "plan", "status", "from", "until", "markets", "requests", "window"] as const;
/** Which options each command accepts; the required ones come first, up to `required`. */
const COMMAND_OPTIONS: Record<KeysCommand["name"], { options: string[]; required: number; positionals: string[] }> = {
  create: { options: ["org", "expires", "id"], required: 1, positionals: [] },
  revoke: { options: [], required: 0, positionals: ["KEY_ID"] },
  list: { options: [], required: 0, positionals: [] },
  "org-set": { options: ["plan", "status", "until", "from", "markets"], required: 3, positionals: ["ID"] },
  "org-rate-limit": { options: ["requests", "window"], required: 2, positionals: ["ID"] },
  pull: { options: [], required: 0, positionals: [] },
};

/** Ids the CLI creates: letters, digits, `.`, `_`, `-`; safe in shells, logs and Redis keys. */
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const WORD_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;

export function checkId(value: string, what: string): string {
  if (!ID_PATTERN.test(value))
    throw new UsageError(
      `${what} must be 1 to 100 letters, digits, '.', '_' or '-' (starting with a letter or digit), ` +
        `not ${JSON.stringify(value)}`,
    );
  return value;
}

function checkWord(value: string, option: string): string {
  if (!WORD_PATTERN.test(value))
    throw new UsageError(
      `--${option} must be a lowercase word such as "paid" or "active", not ${JSON.stringify(value)}`,
    );
  return value;
}

/** A date (midnight UTC) or a spec date-time, returned as the date-time stored in the file. */
export function parseDateOption(value: string, option: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const problem = checkDate(value);
    if (problem) throw new UsageError(`--${option} ${JSON.stringify(value)} is not a date: ${problem}`);
    return `${value}T00:00:00Z`;
  }
  const check = checkDateTime(value);
  if (!check.ok)
    throw new UsageError(
      `--${option} must be YYYY-MM-DD or a date-time such as 2027-01-01T00:00:00Z (${check.reason})`,
    );
  return value;
}

function marketsOf(value: string): MarketsOption {
  const parsed = parseMarketsOption(value);
  if ("problem" in parsed) throw new UsageError(parsed.problem);
  return parsed.markets;
}

function parseWhole(value: string, option: string, max: number): number {
  const number = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!(number >= 1 && number <= max))
    throw new UsageError(`--${option} must be a whole number from 1 to ${max}, not ${JSON.stringify(value)}`);
  return number;
}

function commandName(positionals: string[]): { name: KeysCommand["name"]; rest: string[] } {
  const [first, second, ...others] = positionals;
  if (first === undefined)
    throw new UsageError("a command is required: create, revoke, list, org set, org rate-limit or pull");
  if (first === "create" || first === "revoke" || first === "list" || first === "pull")
    return { name: first, rest: positionals.slice(1) };
  if (first === "org" && second === "set") return { name: "org-set", rest: others };
  if (first === "org" && second === "rate-limit") return { name: "org-rate-limit", rest: others };
  if (first === "org")
    throw new UsageError(
      `org needs a sub-command: set or rate-limit${second ? `, not ${JSON.stringify(second)}` : ""}`,
    );
  throw new UsageError(
    `unknown command ${JSON.stringify(first)}: use create, revoke, list, org set, org rate-limit or pull`,
  );
}

function checkOptions(name: KeysCommand["name"], values: Values, rest: string[]): void {
  const spec = COMMAND_OPTIONS[name];
  const label = name.replace("-", " ");
  for (const option of OPTIONS) {
    if (values[option] !== undefined && !spec.options.includes(option))
      throw new UsageError(`${label} does not take --${option}`);
  }
  for (const option of spec.options.slice(0, spec.required)) {
    if (values[option] === undefined) throw new UsageError(`${label} needs --${option}`);
  }
  if (rest.length < spec.positionals.length) throw new UsageError(`${label} needs ${spec.positionals.join(" ")}`);
  if (rest.length > spec.positionals.length)
    throw new UsageError(`${label} takes no argument ${JSON.stringify(rest[spec.positionals.length])}`);
}

function toCommand(name: KeysCommand["name"], values: Values, rest: string[]): KeysCommand {
  const text = (option: string) => values[option] as string | undefined;
  switch (name) {
    case "create": {
      const command: KeysCommand = { name, org: checkId(text("org")!, "--org") };
      if (text("expires") !== undefined) command.expiresAt = parseDateOption(text("expires")!, "expires");
      if (text("id") !== undefined) command.keyId = checkId(text("id")!, "--id");
      return command;
    }
    case "revoke":
      return { name, keyId: rest[0]! };
    case "list":
    case "pull":
      return { name };
    case "org-set": {
      const command: KeysCommand = {
        name,
        org: checkId(rest[0]!, "the organization ID"),
        plan: checkWord(text("plan")!, "plan"),
        status: checkWord(text("status")!, "status"),
        validUntil: parseDateOption(text("until")!, "until"),
      };
      if (text("from") !== undefined) command.validFrom = parseDateOption(text("from")!, "from");
      if (text("markets") !== undefined) command.markets = marketsOf(text("markets")!);
      return command;
    }
    case "org-rate-limit":
      return {
        name,
        org: rest[0]!,
        requests: parseWhole(text("requests")!, "requests", 1_000_000_000),
        windowSeconds: parseWhole(text("window")!, "window", 31_536_000),
      };
  }
}

/** Parses argv (without node and the script); returns "help" for --help. */
export function parseKeysArgs(argv: string[]): KeysInvocation | "help" {
  let parsed;
  try {
    const options = Object.fromEntries(OPTIONS.map((o) => [o, { type: "string" as const }]));
    parsed = parseArgs({
      args: argv,
      options: {
        ...options,
        access: { type: "string" },
        demo: { type: "boolean" },
        push: { type: "boolean" },
        help: { type: "boolean" },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split("\n")[0]!);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  for (const [option, value] of Object.entries(values))
    if (value === "") throw new UsageError(`--${option} must not be empty`);
  const { name, rest } = commandName(positionals);
  checkOptions(name, values, rest);
  const command = toCommand(name, values, rest);
  // A pull's merge is for the operator to look at (`list`) before it goes out with any command's --push.
  if (name === "pull" && values.push) throw new UsageError("pull does not take --push: push with a command's --push");
  // The committed demo file is changed only when asked for by name: a missing --access must not edit it.
  if (values.access !== undefined && values.demo) throw new UsageError("give --access FILE or --demo, not both");
  if (values.access === undefined && !values.demo) {
    throw new UsageError("--access FILE is required (the access file to change; --demo for data/demo-access.json)");
  }
  return { accessFile: values.access ?? DEFAULT_ACCESS_FILE, command, push: values.push === true };
}

/** The longest KEYS_LOCK_WAIT_MS: ten minutes. */
const MAX_LOCK_WAIT_MS = 600_000;

/**
 * KEYS_LOCK_WAIT_MS, how long to wait for another command's lock (decision: access file changes); undefined: the
 * default.
 */
export function lockWaitFromEnvironment(env: NodeJS.ProcessEnv): number | undefined {
  const value = env.KEYS_LOCK_WAIT_MS;
  if (value === undefined || value === "") return undefined;
  const ms = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!(ms <= MAX_LOCK_WAIT_MS))
    throw new UsageError(
      `KEYS_LOCK_WAIT_MS must be a whole number of milliseconds from 0 to ${MAX_LOCK_WAIT_MS}, ` +
        `not ${JSON.stringify(value)}`,
    );
  return ms;
}
