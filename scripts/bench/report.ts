/** The bench's one table, and the targets of the scale issue it checks. */
import type { ResponseSizes } from "./response-size.js";

export interface SizeReport {
  showtimes: number;
  build: { wallSeconds: number; recordsPerSecond: number; peakRssMb: number; snapshotMb: number; files: number };
  serve?: {
    scenarios: { name: string; oursRps: number; ceilingRps: number; ratio: number; p50Ms: number; p99Ms: number; ceilingP99Ms?: number }[];
    /** On a fresh server: the memory target's figure. */
    sweep: { requests: number; rssMb: number };
    /** The same sweep on the server the load tests just ran against (no target). */
    sweepAfterLoad?: { requests: number; rssMb: number };
    coldStartMs: number;
    /** A bare Node http server's cold start in the same run: the floor on this machine. */
    bareNodeStartMs?: number;
    /** The same two without NODE_EXTRA_CA_CERTS, when the machine sets it (see measureColdStart). */
    coldStartWithoutExtraCaMs?: number;
    bareNodeStartWithoutExtraCaMs?: number;
    functionImportMs: number;
    functionFirstResponseMs: number;
    functionBundleMb: number;
    responses: ResponseSizes;
  };
  jsonServer?: { pageRps: number; getOneRps: number; pageRatio: number; getOneRatio: number };
}

const fixed = (n: number, digits = 1) => n.toFixed(digits);

/** Formats the reports as aligned text rows. */
export function formatTable(reports: SizeReport[]): string {
  const rows: string[][] = [["size", "measure", "value", "target"]];
  for (const r of reports) {
    const size = r.showtimes.toLocaleString("en-US");
    rows.push([size, "build wall", `${fixed(r.build.wallSeconds)} s`, r.showtimes >= 2e6 ? "≤ 120 s" : r.showtimes >= 2e5 ? "≤ 15 s" : ""]);
    rows.push([size, "build rate", `${Math.round(r.build.recordsPerSecond).toLocaleString("en-US")} records/s`, ""]);
    rows.push([size, "build peak RSS", `${fixed(r.build.peakRssMb, 0)} MB`, r.showtimes >= 2e6 ? "≤ 3072 MB" : ""]);
    rows.push([size, "snapshot", `${fixed(r.build.snapshotMb)} MB, ${r.build.files.toLocaleString("en-US")} files`, r.showtimes === 2e5 ? "≤ 250 MB" : ""]);
    if (r.serve) {
      for (const s of r.serve.scenarios) {
        const target = s.name.startsWith("composed page") ? "≥ 30%" : s.name === "401" ? "≥ 60%" : "≥ 50%, p99 ≤ 10 ms";
        const ceilingP99 = s.ceilingP99Ms === undefined ? "" : ` (ceiling ${s.ceilingP99Ms})`;
        rows.push([size, `serve ${s.name}`, `${Math.round(s.oursRps)} rps = ${fixed(s.ratio * 100, 0)}% of ${Math.round(s.ceilingRps)}; p50 ${s.p50Ms} ms p99 ${s.p99Ms}${ceilingP99} ms`, target]);
      }
      rows.push([size, "RSS after sweep", `${fixed(r.serve.sweep.rssMb, 0)} MB (${r.serve.sweep.requests} requests)`, "≤ 200 MB"]);
      if (r.serve.sweepAfterLoad) rows.push([size, "  after the load tests too", `${fixed(r.serve.sweepAfterLoad.rssMb, 0)} MB`, ""]);
      const bare = (ms?: number) => (ms === undefined ? "" : ` (bare node ${fixed(ms, 0)} ms)`);
      rows.push([size, "cold start server", `${fixed(r.serve.coldStartMs, 0)} ms${bare(r.serve.bareNodeStartMs)}`, "≤ 150 ms"]);
      if (r.serve.coldStartWithoutExtraCaMs !== undefined) {
        const value = `${fixed(r.serve.coldStartWithoutExtraCaMs, 0)} ms${bare(r.serve.bareNodeStartWithoutExtraCaMs)}`;
        rows.push([size, "  without NODE_EXTRA_CA_CERTS", value, "≤ 150 ms"]);
      }
      rows.push([size, "function import", `${fixed(r.serve.functionImportMs, 0)} ms (first 200 at ${fixed(r.serve.functionFirstResponseMs, 0)} ms)`, "≤ 50 ms"]);
      rows.push([size, "function bundle", `${fixed(r.serve.functionBundleMb)} MB incl. snapshot`, "≤ 250 MB"]);
      const { precomputedIdentityMb, precomputedGzipMb, composedBoundMb } = r.serve.responses;
      const largest = `precomputed ${fixed(precomputedIdentityMb, 3)} MB (gzip ${fixed(precomputedGzipMb, 3)}); composed ≤ ${fixed(composedBoundMb, 2)} MB`;
      rows.push([size, "largest response", largest, "≤ 4.5 MB"]);
    }
    if (r.jsonServer) {
      const peer = (rps: number, ratio: number) => (rps > 0 ? `${Math.round(rps)} rps; ours ${fixed(ratio)}×` : "no response completed; ours ∞×");
      rows.push([size, "json-server page", peer(r.jsonServer.pageRps, r.jsonServer.pageRatio), "≥ 3×"]);
      rows.push([size, "json-server get-one", peer(r.jsonServer.getOneRps, r.jsonServer.getOneRatio), "≥ 3×"]);
    }
  }
  // Memory must not grow with the dataset: the sweep's RSS at 2M against 200k, when both ran.
  const sweepAt = (n: number) => reports.find((r) => r.showtimes === n)?.serve?.sweep.rssMb;
  const [small, large] = [sweepAt(2e5), sweepAt(2e6)];
  if (small && large) rows.push(["2M/200k", "RSS after sweep", `${fixed(large / small, 2)}×`, "≤ 1.5×"]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows.map((row) => row.map((cell, c) => cell.padEnd(widths[c]!)).join("  ").trimEnd()).join("\n");
}
