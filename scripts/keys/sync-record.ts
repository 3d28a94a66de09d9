/**
 * What each Edge Config's item was when this copy of the access file last pulled or pushed it,
 * kept beside the file (`FILE.edge-config.json`, keyed by store id). A push replaces only the item
 * this copy was derived from, and a pull merges against it (decision: access file changes).
 */
import { readFileSync } from "node:fs";
import { parseAccessFile, type AccessFile } from "../../api/_core/gate/access-file.js";
import { replaceFile } from "../files/replace-file.js";
import { AccessFileError } from "./access-store.js";

/** Items as last pulled or pushed, by Edge Config id. */
export type SyncRecord = Record<string, AccessFile>;

export function syncRecordFileOf(file: string): string {
  return `${file}.edge-config.json`;
}

/** JSON with every object's members in name order: the same data is the same text, whoever ordered it. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The same access data, version included. */
export function isSameAccess(a: AccessFile | undefined, b: AccessFile | undefined): boolean {
  return a !== undefined && b !== undefined && canonicalJson(a) === canonicalJson(b);
}

function brokenRecord(recordFile: string, reason: string): AccessFileError {
  return new AccessFileError(
    `${recordFile} is not a record of pushed access data (${reason}); remove it and run pull, which then merges ` +
      "the item with this file as if they had never been compared",
  );
}

/** The record beside `file`; empty when there is none yet. */
export function readSyncRecord(file: string): SyncRecord {
  const recordFile = syncRecordFileOf(file);
  let text: string;
  try {
    text = readFileSync(recordFile, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new AccessFileError(`cannot read ${recordFile}: ${(error as NodeJS.ErrnoException).code}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw brokenRecord(recordFile, (error as Error).message);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw brokenRecord(recordFile, "not an object");
  const record: SyncRecord = {};
  for (const [id, access] of Object.entries(value)) {
    try {
      record[id] = parseAccessFile(JSON.stringify(access), id);
    } catch (error) {
      throw brokenRecord(recordFile, (error as Error).message);
    }
  }
  return record;
}

/** Records `access` as the item of `edgeConfigId` this copy now derives from. */
export function recordSynced(file: string, edgeConfigId: string, access: AccessFile): void {
  const record = { ...readSyncRecord(file), [edgeConfigId]: access };
  const recordFile = syncRecordFileOf(file);
  try {
    replaceFile(recordFile, `${JSON.stringify(record, null, 2)}\n`);
  } catch (error) {
    throw new AccessFileError(`cannot write ${recordFile}: ${(error as NodeJS.ErrnoException).code}`);
  }
}
