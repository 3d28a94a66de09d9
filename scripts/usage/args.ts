/** Arguments of `npm run usage`: what to read and how to print it, each checked before any store is read. */
import { parseArgs } from "node:util";
import { checkDate } from "../../api/_core/format/primitives/date-time.js";

export const USAGE = `usage: npm run usage -- [--org ID] [--market ID] [--from DATE] [--to DATE]
                        [--by day|month] [--format table|csv|json] [--dir DIR]
Requests and response bytes per organization and period, by operation and outcome (docs/operations.md, Usage).
--from and --to: YYYY-MM-DD, or YYYY-MM for a whole month (from its first day, to its last); by
  default this month so far (UTC). At most 400 days.
--org ID: one organization; --org '' the requests refused for keys that name none.
--market ID: one market (a single-market deployment counts under "default").
--by month (the default) or day; --format table (the default), csv (one line per period, market,
  organization, operation and outcome: an invoice's lines) or json.
Reads the shared store the rate limiter uses when its variables are set (UPSTASH_REDIS_REST_URL and
_TOKEN, or REDIS_URL), else the local server's folder (--dir, default USAGE_DIR or ops/usage).
Outcomes: 2xx, 304, 400-404 (every 4xx but 403 and 429), 403, 429, 5xx, and cdn: handed on by the
Vercel gateway in rewrite mode and answered from the CDN cache (a 200 or a 304; its bytes not seen).
Exit 0 printed; 1 the store could not be read; 2 bad arguments.`;

/** The most days one read spans: the store keeps usage 400 days. */
export const MAX_DAYS = 400;

export type Period = "day" | "month";
export type Format = "table" | "csv" | "json";

export interface UsageInvocation {
  from: string;
  to: string;
  organization?: string;
  market?: string;
  by: Period;
  format: Format;
  /** The local server's folder, read when no shared store is configured. */
  dir?: string;
}

/** A mistake in how the command was called: one line and exit status 2. */
export class UsageError extends Error {}

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A --from or --to value as a day: a month is its first day (from) or its last (to). */
function dayOf(option: string, value: string, end: boolean): string {
  if (/^\d{4}-\d{2}$/.test(value) && !checkDate(`${value}-01`)) {
    if (!end) return `${value}-01`;
    const [year, month] = value.split("-").map(Number) as [number, number];
    return isoDay(Date.UTC(year, month, 1) - DAY_MS);
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !checkDate(value)) return value;
  throw new UsageError(`${option} must be a date YYYY-MM-DD or a month YYYY-MM, not ${JSON.stringify(value)}`);
}

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${option} must be one of ${allowed.join(", ")}, not ${JSON.stringify(value)}`);
}

/** The invocation, or "help"; `today` (UTC) is what the default range ends on. */
export function parseUsageArgs(argv: string[], today: Date): UsageInvocation | "help" {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        org: { type: "string" },
        market: { type: "string" },
        from: { type: "string" },
        to: { type: "string" },
        by: { type: "string", default: "month" },
        format: { type: "string", default: "table" },
        dir: { type: "string" },
        help: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return "help";
  const todayText = isoDay(today.getTime());
  const from = dayOf("--from", (values.from as string | undefined) ?? `${todayText.slice(0, 7)}-01`, false);
  const to = dayOf("--to", (values.to as string | undefined) ?? todayText, true);
  if (from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days > MAX_DAYS) throw new UsageError(`from ${from} to ${to} is ${days} days; at most ${MAX_DAYS} at a time`);
  const market = values.market as string | undefined;
  if (market === "") throw new UsageError("--market must name a market");
  const dir = values.dir as string | undefined;
  if (dir === "") throw new UsageError("--dir must name a folder");
  return {
    from,
    to,
    organization: values.org as string | undefined,
    market,
    by: oneOf("--by", values.by as string, ["day", "month"] as const),
    format: oneOf("--format", values.format as string, ["table", "csv", "json"] as const),
    dir,
  };
}
