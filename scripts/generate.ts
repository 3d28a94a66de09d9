/**
 * Writes a deterministic synthetic source dataset (same layout as data/) for load tests and benchmarks:
 *   npm run generate -- --out DIR --showtimes N [--markets world] [--seed S] [--force]
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { churnDataset } from "./generate/churn.js";
import { WORLD_MARKETS } from "./generate/world-markets.js";
import { MARKETS_FILE, writeDataset } from "./generate/write-dataset.js";

const WORLD_SAMPLE = ["us", "cn", "in", "mx", "fr"].join(", ");
const WORLD_MINIMUM = (364 * WORLD_MARKETS.length).toLocaleString("en");
const USAGE = `Usage: npm run generate -- --out DIR --showtimes N [--markets world] [--seed S] [--force]
       npm run generate -- --churn FROM --out DIR [--seed S] [--force]

Writes DIR/{attributes,cinemas,films,showtimes}: about N/364 cinemas in GB, DE, FR, ES, IT, NL
and US, a few hundred films, and exactly N showtimes over 14 days from 2026-12-01 (in a small
dataset, a cinema whose screens cannot hold its share plays a few on after them) as NDJSON parts
of at most ${(100_000).toLocaleString("en")} lines. The same N and S always give byte-identical files.

  --churn FROM    instead of a new dataset, the generated dataset FROM a day later: its earliest day
                  gone, a new last day, 2% of the showtimes moved, 0.5% cancelled, a few cinemas and
                  films closed and opened (a changes-feed benchmark's day; --seed varies the day)
  --out DIR       output directory; created if missing, must be empty unless --force
  --showtimes N   number of showtimes, an integer from 0 to 100000000
  --markets world instead, the world's cinema countries in ${WORLD_MARKETS.length} markets (${WORLD_SAMPLE} and
                  ${WORLD_MARKETS.length - 5} more) with their markets.json, each country's share of the showtimes
                  its screens' share of the shows they play (the US about 27%: 2.0M of 7.4M, China
                  25%; the US's cinemas in its 49 largest metros by population, each over
                  its area); every market has a cinema from --showtimes ${WORLD_MINIMUM}
  --seed S        random seed, an integer from 0 to 4294967295 (default 1)
  --force         replace the four resource folders (and markets.json) of a non-empty DIR
  --help          print this help`;

const MAX_SHOWTIMES = 100_000_000;
const RESOURCES = ["attributes", "cinemas", "films", "showtimes"] as const;

interface Options {
  out: string;
  churn?: string;
  showtimes: number;
  seed: number;
  force: boolean;
  markets?: "world";
}

/** A mistake in how the script was called: printed as one line, exit status 2. */
class UsageError extends Error {}

function parseArguments(argv: readonly string[]): Options | "help" {
  const values = new Map<string, string>();
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--force") {
      force = true;
      continue;
    }
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    if (!["--out", "--showtimes", "--seed", "--churn", "--markets"].includes(flag)) {
      throw new UsageError(
        flag.startsWith("-")
          ? `unknown option ${flag} (see --help)`
          : `unexpected argument ${JSON.stringify(arg)} (see --help)`,
      );
    }
    if (values.has(flag)) throw new UsageError(`${flag} is given twice`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === "" || (inline === undefined && value.startsWith("--")))
      throw new UsageError(`${flag} needs a value`);
    values.set(flag, value);
  }
  const out = values.get("--out");
  if (out === undefined) throw new UsageError("--out DIR is required");
  const churn = values.get("--churn");
  const showtimes = values.get("--showtimes");
  if (churn !== undefined && showtimes !== undefined)
    throw new UsageError("--churn and --showtimes do not go together");
  if (churn === undefined && showtimes === undefined) throw new UsageError("--showtimes N is required");
  const markets = values.get("--markets");
  if (markets !== undefined && markets !== "world")
    throw new UsageError(`--markets must be world, got ${JSON.stringify(markets)}`);
  if (markets !== undefined && churn !== undefined)
    throw new UsageError("--churn keeps the markets of FROM: --markets does not go with it");
  return {
    out,
    churn,
    showtimes: showtimes === undefined ? 0 : parseInteger("--showtimes", showtimes, MAX_SHOWTIMES),
    seed: parseInteger("--seed", values.get("--seed") ?? "1", 0xffffffff),
    force,
    ...(markets === "world" && { markets }),
  };
}

function parseInteger(flag: string, text: string, max: number): number {
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value <= max)) throw new UsageError(`${flag} must be an integer from 0 to ${max}, got ${JSON.stringify(text)}`);
  return value;
}

/** Refuses to mix a new dataset with an old one: a stale part file would silently add showtimes. */
function prepareOutput({ out, force }: Options): void {
  if (existsSync(out)) {
    if (!statSync(out).isDirectory()) throw new UsageError(`--out ${out} exists and is not a directory`);
    if (readdirSync(out).length > 0) {
      if (!force)
        throw new UsageError(
          `--out ${out} is not empty (pass --force to replace its ${RESOURCES.join(", ")} folders and ${MARKETS_FILE})`,
        );
      for (const resource of RESOURCES) rmSync(join(out, resource), { recursive: true, force: true });
      // A stale markets.json would make a dataset of one market a multi-market one.
      rmSync(join(out, MARKETS_FILE), { force: true });
    }
  }
  for (const resource of RESOURCES) mkdirSync(join(out, resource), { recursive: true });
}

async function main(argv: readonly string[]): Promise<void> {
  const options = parseArguments(argv);
  if (options === "help") {
    console.log(USAGE);
    return;
  }
  const started = performance.now();
  prepareOutput(options);
  if (options.churn !== undefined) {
    if (!existsSync(join(options.churn, "films", "films.json")))
      throw new UsageError(`--churn ${options.churn} is not a generated dataset`);
    const day = churnDataset(options.churn, options.out, options.seed);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `generate: wrote ${options.out}, ${options.churn} a day later: ` +
        `${day.dropped} showtimes of the first day gone, ${day.added} added, ${day.moved} moved, ` +
        `${day.cancelled} cancelled in ${seconds} s`,
    );
    return;
  }
  const made = await writeDataset(options);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const markets = options.markets ? ` in ${WORLD_MARKETS.length} markets (${MARKETS_FILE})` : "";
  console.log(
    `generate: wrote ${options.showtimes} showtimes in ${made.files} files, ${made.cinemas} cinemas${markets}, ` +
      `${made.films} films and ${made.attributes} attributes to ${options.out} in ${seconds} s`,
  );
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`generate: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
});
