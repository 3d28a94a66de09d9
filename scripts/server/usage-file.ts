/**
 * Usage kept in files, for a local server without a shared store (decision: usage): one JSON file per
 * UTC month in a folder of its own (USAGE_DIR, default ops/usage), so that `npm start` users see usage
 * too and a write rewrites one month at most. A file is written whole and renamed into place (a reader
 * sees the old or the new, never half), under a lock beside it (servers sharing the folder lose no
 * count: scripts/files/file-lock.ts), and remembers the ids of the last batches it took, so a batch
 * written again adds nothing.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { isOutcome } from "../../api/_core/usage/outcome.js";
import {
  isAsked,
  rowKey,
  sortedRows,
  type UsageEntry,
  type UsageQuery,
  type UsageStore,
} from "../../api/_core/usage/usage-store.js";
import { takeLock } from "../files/file-lock.js";

/** Where `npm start` and `npm run serve` keep usage without a shared store. */
export const DEFAULT_USAGE_DIR = "ops/usage";
/** A write waits at most this long: for the lock another server holds, and the disk. */
export const FILE_TIMEOUT_MS = 1_000;
/** Batch ids a month's file remembers: hours of writes, far longer than a batch is held. */
export const REMEMBERED_BATCHES = 10_000;

interface MonthFile {
  format: 1;
  rows: UsageEntry[];
  batches: string[];
}

const monthFile = (dir: string, month: string) => path.join(dir, `${month}.json`);

function isRow(value: unknown): value is UsageEntry {
  const row = value as UsageEntry;
  return (
    typeof row === "object" &&
    row !== null &&
    ["day", "market", "organization", "operation"].every((name) => typeof row[name as keyof UsageEntry] === "string") &&
    isOutcome(String(row.outcome)) &&
    Number.isSafeInteger(row.requests) &&
    Number.isSafeInteger(row.bytes)
  );
}

/** A month's file, or an empty one when there is none yet; throws naming the file when it is not one of ours. */
async function readMonth(file: string): Promise<MonthFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { format: 1, rows: [], batches: [] };
    throw error;
  }
  let parsed: MonthFile;
  try {
    parsed = JSON.parse(text) as MonthFile;
  } catch (error) {
    throw new Error(`${file} is not a usage file (${(error as Error).message})`);
  }
  if (
    parsed?.format !== 1 ||
    !Array.isArray(parsed.rows) ||
    !parsed.rows.every(isRow) ||
    !Array.isArray(parsed.batches)
  )
    throw new Error(`${file} is not a usage file of format 1`);
  return parsed;
}

async function writeMonth(file: string, month: MonthFile): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(month, null, 1)}\n`);
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}

/** Adds one month's entries of a batch to its file, unless the file took that batch already. */
async function addToMonth(file: string, id: string, entries: UsageEntry[]): Promise<boolean> {
  const unlock = await takeLock(`${file}.lock`, FILE_TIMEOUT_MS);
  try {
    const month = await readMonth(file);
    if (month.batches.includes(id)) return false;
    const rows = new Map(month.rows.map((row) => [rowKey(row), row]));
    for (const entry of entries) {
      const row = rows.get(rowKey(entry));
      if (row) {
        row.requests += entry.requests;
        row.bytes += entry.bytes;
      } else rows.set(rowKey(entry), { ...entry });
    }
    await writeMonth(file, {
      format: 1,
      rows: sortedRows(rows.values()),
      batches: [...month.batches, id].slice(-REMEMBERED_BATCHES),
    });
    return true;
  } finally {
    unlock();
  }
}

/** Every month (YYYY-MM) from the one of `from` to the one of `to`. */
function monthsOf(query: UsageQuery): string[] {
  const months: string[] = [];
  let [year, month] = query.from.slice(0, 7).split("-").map(Number) as [number, number];
  for (let text = query.from.slice(0, 7); text <= query.to.slice(0, 7); ) {
    months.push(text);
    [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
    text = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}`;
  }
  return months;
}

export function fileUsageStore(dir: string = DEFAULT_USAGE_DIR): UsageStore {
  return {
    name: `the usage folder ${dir}`,
    async add(batch) {
      await mkdir(dir, { recursive: true });
      const byMonth = new Map<string, UsageEntry[]>();
      for (const entry of batch.entries) {
        const month = entry.day.slice(0, 7);
        byMonth.set(month, [...(byMonth.get(month) ?? []), entry]);
      }
      let added = false;
      for (const [month, entries] of byMonth)
        added = (await addToMonth(monthFile(dir, month), batch.id, entries)) || added;
      return added;
    },
    async read(query) {
      const rows: UsageEntry[] = [];
      for (const month of monthsOf(query))
        for (const row of (await readMonth(monthFile(dir, month))).rows) if (isAsked(row, query)) rows.push(row);
      return sortedRows(rows);
    },
  };
}
