/**
 * Usage as the operator reads it (decision: usage): rows summed per period (day or month), market,
 * organization, operation and outcome, with each organization's total per period; printed as a
 * table, as CSV (one line per row, an invoice's lines; RFC 4180 quoting) or as JSON.
 */
import { OUTCOMES } from "../../api/_core/usage/outcome.js";
import { NO_ORGANIZATION, type UsageEntry } from "../../api/_core/usage/usage-store.js";
import type { Format, Period, UsageInvocation } from "./args.js";

export interface ReportRow {
  /** YYYY-MM-DD or YYYY-MM. */
  period: string;
  market: string;
  organization: string;
  operation: string;
  outcome: string;
  requests: number;
  bytes: number;
}

const COLUMNS = ["period", "market", "organization", "operation", "outcome", "requests", "bytes"] as const;

/** Rows summed by period, in order: period, market, organization, operation, then outcome as listed. */
export function summarize(entries: readonly UsageEntry[], by: Period): ReportRow[] {
  const rows = new Map<string, ReportRow>();
  for (const entry of entries) {
    const period = by === "month" ? entry.day.slice(0, 7) : entry.day;
    const key = [period, entry.market, entry.organization, entry.operation, entry.outcome].join("\u0000");
    const row = rows.get(key);
    if (row) {
      row.requests += entry.requests;
      row.bytes += entry.bytes;
    } else {
      const { market, organization, operation, outcome, requests, bytes } = entry;
      rows.set(key, { period, market, organization, operation, outcome, requests, bytes });
    }
  }
  const order = (row: ReportRow) => [row.period, row.market, row.organization, row.operation];
  return [...rows.values()]
    .filter((row) => row.requests !== 0 || row.bytes !== 0)
    .sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
      return OUTCOMES.indexOf(a.outcome as never) - OUTCOMES.indexOf(b.outcome as never);
    });
}

/** Each (period, market, organization)'s requests and bytes. */
function totalsOf(rows: readonly ReportRow[]): ReportRow[] {
  const totals = new Map<string, ReportRow>();
  for (const row of rows) {
    const key = [row.period, row.market, row.organization].join("\u0000");
    const total = totals.get(key) ?? { ...row, operation: "(total)", outcome: "", requests: 0, bytes: 0 };
    total.requests += row.requests;
    total.bytes += row.bytes;
    totals.set(key, total);
  }
  return [...totals.values()];
}

function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvOf(rows: readonly ReportRow[]): string {
  return [COLUMNS.join(","), ...rows.map((row) => COLUMNS.map((name) => csvField(row[name])).join(","))]
    .map((line) => `${line}\n`)
    .join("");
}

function jsonOf(rows: readonly ReportRow[], invocation: UsageInvocation): string {
  const organizationOf = (row: ReportRow) => (row.organization === NO_ORGANIZATION ? null : row.organization);
  const totals = totalsOf(rows).map(({ period, market, requests, bytes, ...row }) => {
    return {
      period,
      market,
      organization: organizationOf({ ...row, period, market, requests, bytes }),
      requests,
      bytes,
    };
  });
  const { from, to, by } = invocation;
  const named = rows.map((row) => ({ ...row, organization: organizationOf(row) }));
  return `${JSON.stringify({ from, to, by, rows: named, totals }, null, 2)}\n`;
}

function tableOf(rows: readonly ReportRow[], invocation: UsageInvocation): string {
  if (rows.length === 0) return `no usage from ${invocation.from} to ${invocation.to}\n`;
  const totals = totalsOf(rows);
  const lines: ReportRow[] = [];
  for (const total of totals) {
    const own = rows.filter(
      (row) => row.period === total.period && row.market === total.market && row.organization === total.organization,
    );
    lines.push(...own, total);
  }
  const cells = lines.map((row) => [
    row.period,
    row.market,
    row.organization === NO_ORGANIZATION ? "(no key)" : row.organization,
    row.operation,
    row.outcome,
    row.requests.toLocaleString("en-US"),
    row.bytes.toLocaleString("en-US"),
  ]);
  const header = COLUMNS.map((name) => name.toUpperCase());
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => line[i]!.length)));
  const aligned = (line: string[]) =>
    line
      .map((cell, i) => (i >= 5 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return `${[header, ...cells].map(aligned).join("\n")}\n`;
}

export function formatReport(rows: readonly ReportRow[], invocation: UsageInvocation, format: Format): string {
  if (format === "csv") return csvOf(rows);
  if (format === "json") return jsonOf(rows, invocation);
  return tableOf(rows, invocation);
}
