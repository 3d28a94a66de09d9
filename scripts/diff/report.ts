/** The diff's two outputs: lines for people, and one JSON document for pipelines. */
import type { ListResource } from "../../api/_core/format/layout/manifest.js";
import type { ResourceDiff } from "./compare-resource.js";
import type { FieldChange } from "./field-diff.js";

export type SnapshotDiff = Record<ListResource, ResourceDiff>;

const SINGULAR: Record<ListResource, string> = {
  showtimes: "showtime",
  cinemas: "cinema",
  films: "film",
  attributes: "attribute",
};
/** Resources in the order the report lists them (docs/operations.md, snapshot diffs). */
export const REPORT_ORDER: readonly ListResource[] = ["showtimes", "cinemas", "films", "attributes"];
const MAX_VALUE_CHARS = 80;

/** Ids print as they are unless they hold spaces or control characters, which would blur the line. */
function formatId(id: string): string {
  return /^[^\s\p{C}]+$/u.test(id) ? id : JSON.stringify(id);
}

function formatValue(value: unknown): string {
  if (value === undefined) return "(none)";
  const text = JSON.stringify(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

function formatField(change: FieldChange): string {
  return `${change.path} ${formatValue(change.from)} → ${formatValue(change.to)}`;
}

function formatSummary(resource: ListResource, diff: ResourceDiff): string {
  const sizes = `(${diff.count.from} → ${diff.count.to})`;
  if (diff.added + diff.removed + diff.changed + diff.expired === 0) return `${resource}: no changes ${sizes}`;
  const expired = diff.expired > 0 ? `, ${diff.expired} expired` : "";
  return `${resource}: ${diff.added} added, ${diff.removed} removed, ${diff.changed} changed${expired} ${sizes}`;
}

/** The human report: a summary line per resource, then its listed changes and how many were left out. */
export function formatText(result: SnapshotDiff): string {
  const lines: string[] = [];
  for (const resource of REPORT_ORDER) {
    const diff = result[resource];
    lines.push(formatSummary(resource, diff));
    for (const change of diff.changes) {
      const subject = `${SINGULAR[resource]} ${formatId(change.id)}`;
      const detail = change.kind === "changed" ? change.fields!.map(formatField).join("; ") : change.kind;
      lines.push(`  ${subject}: ${detail}`);
    }
    if (diff.omitted > 0) lines.push(`  … and ${diff.omitted} more`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `{"resources": {...}}` as docs/operations.md gives it; `expired`, `count` and `omitted` are additions for
 * pipelines.
 */
export function formatJson(result: SnapshotDiff): string {
  const resources = Object.fromEntries(
    REPORT_ORDER.map((resource) => {
      const { added, removed, changed, expired, changes, omitted, count } = result[resource];
      return [resource, { added, removed, changed, expired, changes, omitted, count }];
    }),
  );
  return `${JSON.stringify({ resources })}\n`;
}

/** True when anything differs. */
export function hasChanges(result: SnapshotDiff): boolean {
  return REPORT_ORDER.some((r) => result[r].added + result[r].removed + result[r].changed + result[r].expired > 0);
}

/**
 * Resources whose removed share of the old records exceeds `percent`, as messages. Expired showtimes
 * are neither removed nor counted among the old records that could have stayed (decision: expired showtimes).
 */
export function findRemovalsOver(result: SnapshotDiff, percent: number): string[] {
  return REPORT_ORDER.flatMap((resource) => {
    const { removed, expired, count } = result[resource];
    const current = count.from - expired;
    const share = current === 0 ? 0 : (removed / current) * 100;
    if (share <= percent) return [];
    const of = expired > 0 ? `${removed} of the ${current} not expired` : `${removed} of ${count.from}`;
    return [`${share.toFixed(1)}% of ${resource} were removed (${of}), more than the ${percent}% allowed`];
  });
}
