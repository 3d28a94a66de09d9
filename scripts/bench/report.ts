/** The bench's one table, and the targets of snapshot format 3 it checks (docs/performance.md). */
import type { BuildFigures } from "./build-step.js";
import { MCP_SCENARIOS } from "./mcp-scenarios.js";
import type { ResponseSizes } from "./response-size.js";
import type { ScenarioFigures } from "./serve-step.js";

export interface SizeReport {
  showtimes: number;
  build: BuildFigures;
  serve?: {
    scenarios: ScenarioFigures[];
    /** On a fresh server: the memory target's figure. */
    sweep: { requests: number; rssMb: number };
    coldStartMs: number;
    /** A bare Node http server's cold start in the same run: the floor on this machine. */
    bareNodeStartMs: number;
    /** The same two without NODE_EXTRA_CA_CERTS, when the machine sets it (see measureColdStart). */
    coldStartWithoutExtraCaMs?: number;
    bareNodeStartWithoutExtraCaMs?: number;
    functionImportMs: number;
    functionFirstResponseMs: number;
    /** The snapshot plus the function's own bundle: what one Vercel function carries. */
    functionBundleMb: number;
    responses: ResponseSizes;
  };
}

/**
 * Each scenario's target against the bare server, as ceiling CPU ÷ ours (at least): the targets
 * docs/performance.md holds now. Other pages are measured against the uncached cinema page of the
 * same run (RELATIVE_TARGETS) or reported without one: a page composed of 100 records from
 * compressed blocks is many times a bare server's bytes from memory, and the ratio on this VM says
 * more of the load generator's wake-ups than of the server (docs/performance.md, "Reading the table").
 */
export const CPU_TARGETS: Record<string, { target: number; aim?: number }> = {
  "stored page": { target: 0.7 },
  "get-one": { target: 0.7 },
};

/** Scenarios whose target is their CPU per request against another scenario's in the same run (at most). */
export const RELATIVE_TARGETS: Record<string, { of: string; atMost: number }> = {
  // A tool call against the HTTP request asking the same question (decision: MCP).
  [MCP_SCENARIOS.films.mcp]: { of: MCP_SCENARIOS.films.http, atMost: 2 },
  [MCP_SCENARIOS.showtimes.mcp]: { of: MCP_SCENARIOS.showtimes.http, atMost: 2 },
  [MCP_SCENARIOS.places.mcp]: { of: MCP_SCENARIOS.places.http, atMost: 2 },
  "cinema + date, uncached": { of: "composed by cinema, uncached", atMost: 1.2 },
  // Discovery (decision: discovery, name search): what an app asks first, against the cinema page.
  "films near a US city on a date, uncached": { of: "composed by cinema, uncached", atMost: 2 },
  "q on films, uncached": { of: "composed by cinema, uncached", atMost: 1 },
  "q on cinemas, uncached": { of: "composed by cinema, uncached", atMost: 1 },
  // A place look-up (decision: places): within what the uncached cinema page costs.
  "places, uncached": { of: "composed by cinema, uncached", atMost: 1 },
  // Near spellings (decision: name search): every word of the index looked at, still within q's budget.
  "q misspelt on films, uncached": { of: "composed by cinema, uncached", atMost: 1 },
  "q misspelt on cinemas, uncached": { of: "composed by cinema, uncached", atMost: 1 },
};

/** A scenario's CPU per request ÷ that of the scenario its relative target names, when both ran. */
export function relativeCpu(figures: readonly ScenarioFigures[], name: string): number | undefined {
  const ratios = relativeRatios(figures, name);
  return ratios && median(ratios);
}

/** A relative figure's ratio in each round: the pass against the ceiling's, then the paired ones (paired-rounds.ts). */
function relativeRatios(figures: readonly ScenarioFigures[], name: string): number[] | undefined {
  const goal = RELATIVE_TARGETS[name];
  const ours = figures.find((f) => f.name === name);
  const other = goal && figures.find((f) => f.name === goal.of);
  if (!ours || !other) return undefined;
  return [ours.ours.cpuPerRequestUs / other.ours.cpuPerRequestUs, ...(ours.pairedRatios ?? [])];
}

/** The median of some numbers (the mean of the middle two of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A scenario's figures in one cell: CPU per request against the ceiling's, requests/s, p99. */
export function scenarioValue(f: ScenarioFigures): string {
  return (
    `${fixed(f.ours.cpuPerRequestUs, 0)} µs vs ${fixed(f.ceiling.cpuPerRequestUs, 0)} µs = ${fixed(f.cpuRatio, 2)}; ` +
    `${Math.round(f.ours.requestsPerSecond)} vs ${Math.round(f.ceiling.requestsPerSecond)} req/s; ` +
    `p99 ${fixed(f.ours.p99Ms)} vs ${fixed(f.ceiling.p99Ms)} ms`
  );
}

export function targetOf(figures: readonly ScenarioFigures[], f: ScenarioFigures): string {
  const p99 = `p99 ≤ 2×: ${mark(f.ours.p99Ms <= 2 * f.ceiling.p99Ms)}`;
  const goal = CPU_TARGETS[f.name];
  if (goal)
    return `≥ ${goal.target}${goal.aim ? ` (aim ${goal.aim})` : ""}: ${mark(f.cpuRatio >= goal.target)}; ${p99}`;
  const relative = RELATIVE_TARGETS[f.name];
  const ratios = relativeRatios(figures, f.name);
  if (!relative || ratios === undefined) return "";
  const times = median(ratios);
  const rounds = ratios.length > 1 ? ` (median of ${ratios.map((r) => fixed(r, 2)).join(", ")})` : "";
  return `CPU ≤ ${relative.atMost}× "${relative.of}": ${fixed(times, 2)}×${rounds}, ${mark(times <= relative.atMost)}`;
}

const fixed = (n: number, digits = 1) => n.toFixed(digits);
const mark = (ok: boolean) => (ok ? "met" : "NOT MET");

function buildRows(size: string, r: SizeReport): string[][] {
  const b = r.build;
  const isLarge = r.showtimes >= 2e6;
  const isMid = r.showtimes === 2e5;
  const snapshot = [
    size,
    "snapshot",
    `${fixed(b.snapshotMb)} MB (${Object.entries(b.fileBytes)
      .map(([f, n]) => `${f} ${fixed(n / 2 ** 20)}`)
      .join(", ")}); ${fixed((b.snapshotMb * 2 ** 20) / r.showtimes, 0)} B/showtime`,
    "",
  ];
  // --reuse-snapshots serves an earlier build: its time and memory were not measured in this run.
  if (Number.isNaN(b.wallSeconds)) return [[size, "build", "reused from an earlier run, not measured", ""], snapshot];
  return [
    [
      size,
      "build wall",
      `${fixed(b.wallSeconds)} s (${Object.entries(b.stages)
        .map(([s, t]) => `${s} ${fixed(t)}`)
        .join(", ")})`,
      isLarge ? `≤ 60 s: ${mark(b.wallSeconds <= 60)}` : isMid ? `≤ 8 s: ${mark(b.wallSeconds <= 8)}` : "",
    ],
    [size, "build peak RSS", `${fixed(b.peakRssMb, 0)} MB`, isLarge ? `≤ 1536 MB: ${mark(b.peakRssMb <= 1536)}` : ""],
    snapshot,
  ];
}

function serveRows(size: string, r: SizeReport): string[][] {
  const s = r.serve!;
  const rows: string[][] = [];
  for (const f of s.scenarios) rows.push([size, `CPU/request ${f.name}`, scenarioValue(f), targetOf(s.scenarios, f)]);
  rows.push([
    size,
    "RSS after sweep",
    `${fixed(s.sweep.rssMb, 0)} MB (${s.sweep.requests} requests)`,
    r.showtimes >= 2e6 ? `≤ 150 MB: ${mark(s.sweep.rssMb <= 150)}` : "",
  ]);
  const startOk = (ours: number, bare: number) => `≤ bare + 40 ms: ${mark(ours <= bare + 40)}`;
  rows.push([
    size,
    "cold start server",
    `${fixed(s.coldStartMs, 0)} ms (bare node ${fixed(s.bareNodeStartMs, 0)} ms)`,
    startOk(s.coldStartMs, s.bareNodeStartMs),
  ]);
  if (s.coldStartWithoutExtraCaMs !== undefined) {
    rows.push([
      size,
      "  without NODE_EXTRA_CA_CERTS",
      `${fixed(s.coldStartWithoutExtraCaMs, 0)} ms (bare node ${fixed(s.bareNodeStartWithoutExtraCaMs!, 0)} ms)`,
      startOk(s.coldStartWithoutExtraCaMs, s.bareNodeStartWithoutExtraCaMs!),
    ]);
  }
  rows.push([
    size,
    "function import",
    `${fixed(s.functionImportMs, 0)} ms (first 200 at ${fixed(s.functionFirstResponseMs, 0)} ms)`,
    `≤ 30 ms: ${mark(s.functionImportMs <= 30)}`,
  ]);
  const sizeTarget = r.showtimes >= 2e6 ? [250, 150] : r.showtimes === 2e5 ? [30, 15] : undefined;
  rows.push([
    size,
    "function bundle",
    `${fixed(s.functionBundleMb)} MB incl. snapshot`,
    sizeTarget
      ? `≤ ${sizeTarget[0]} MB: ${mark(s.functionBundleMb <= sizeTarget[0]!)}; ` +
        `aim ≤ ${sizeTarget[1]}: ${mark(s.functionBundleMb <= sizeTarget[1]!)}`
      : "≤ 250 MB",
  ]);
  const { precomputedIdentityMb, precomputedGzipMb, composedBoundMb } = s.responses;
  rows.push([
    size,
    "largest response",
    `stored ${fixed(precomputedIdentityMb, 3)} MB (gzip ${fixed(precomputedGzipMb, 3)}); ` +
      `composed ≤ ${fixed(composedBoundMb, 2)} MB`,
    "≤ 4.5 MB",
  ]);
  return rows;
}

/** Formats the reports as aligned text rows. */
export function formatTable(reports: SizeReport[]): string {
  const rows: string[][] = [["size", "measure", "value", "target"]];
  for (const r of reports) {
    const size = r.showtimes.toLocaleString("en-US");
    rows.push(...buildRows(size, r));
    if (r.serve) rows.push(...serveRows(size, r));
  }
  return alignRows(rows);
}

/** Rows of cells as text, each column as wide as its widest cell. */
export function alignRows(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
