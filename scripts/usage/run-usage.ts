/** `npm run usage` as a function of its arguments, environment, clock and output (scripts/usage.ts runs it). */
import { parseUsageArgs, USAGE } from "./args.js";
import { readUsage, usageStoreFor } from "./read-usage.js";
import { formatReport, summarize } from "./report.js";

export interface UsageIo {
  env: NodeJS.ProcessEnv;
  now: () => Date;
  stdout: (text: string) => void;
}

/** Prints the report; throws UsageError (exit 2) or UsageReadFailure (exit 1). */
export async function runUsage(argv: string[], io: UsageIo): Promise<void> {
  const invocation = parseUsageArgs(argv, io.now());
  if (invocation === "help") return io.stdout(`${USAGE}\n`);
  const entries = await readUsage(usageStoreFor(io.env, invocation.dir), invocation);
  io.stdout(formatReport(summarize(entries, invocation.by), invocation, invocation.format));
}
