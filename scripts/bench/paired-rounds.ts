/**
 * The figures of the relative targets (report.ts RELATIVE_TARGETS) measured in pairs: after the
 * pass against the ceiling, each scenario the other is compared with is run again, then right
 * after it each scenario compared with it, in more rounds; a relative figure is the median of its
 * rounds' ratios (the first pass's among them). One window of each, minutes apart, moved a ratio by
 * half between two runs of the same code on this shared machine (2026-11-27: find_showtimes 1.46×
 * and 2.20× against its HTTP request), more than the targets leave; windows back to back share
 * the machine's state.
 */
import { runLoad } from "./load.js";
import { RELATIVE_TARGETS } from "./report.js";
import type { Scenario } from "./scenario.js";
import { headersOf, type ScenarioFigures } from "./serve-step.js";

/** Rounds after the first pass: with it, three ratios a figure, whose median is reported. */
export const PAIRED_ROUNDS = 2;

/** The scenarios measured against `of`, both among `scenarios`, grouped by `of`. */
function pairsOf(scenarios: readonly Scenario[]): Map<Scenario, Scenario[]> {
  const byName = new Map(scenarios.map((s) => [s.name, s]));
  const groups = new Map<Scenario, Scenario[]>();
  for (const scenario of scenarios) {
    const of = byName.get(RELATIVE_TARGETS[scenario.name]?.of ?? "");
    if (of) groups.set(of, [...(groups.get(of) ?? []), scenario]);
  }
  return groups;
}

/** Adds to `figures` each relative scenario's ratios of `rounds` more paired rounds against our server. */
export async function measurePairedRounds(
  ours: { url: string; pid: number },
  workDir: string,
  scenarios: readonly Scenario[],
  figures: ScenarioFigures[],
  seconds: number,
  rounds = PAIRED_ROUNDS,
): Promise<void> {
  const groups = pairsOf(scenarios);
  // The caches are warm from the first pass: a short warm-up each.
  const cpuOf = async (scenario: Scenario) => {
    const load = { url: ours.url, pid: ours.pid, paths: scenario.paths, bodies: scenario.bodies, seconds, workDir };
    return (await runLoad({ ...load, headers: headersOf(scenario), warmupSeconds: 2 })).cpuPerRequestUs;
  };
  for (let round = 0; round < rounds; round++) {
    for (const [of, compared] of groups) {
      process.stderr.write(`· round ${round + 2}: ${of.name} and the ${compared.length} measured against it\n`);
      const base = await cpuOf(of);
      for (const scenario of compared) {
        const figure = figures.find((f) => f.name === scenario.name);
        if (figure) (figure.pairedRatios ??= []).push((await cpuOf(scenario)) / base);
      }
    }
  }
}
