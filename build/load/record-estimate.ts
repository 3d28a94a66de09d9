/** How many records the source files hold, estimated from the files read so far (the build's progress). */
import { statSync } from "node:fs";
import type { SourceFile } from "./read-source-file.js";

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0; // unreadable: reported when it is read
  }
}

export function totalBytes(files: readonly SourceFile[]): number {
  return files.reduce((sum, { file }) => sum + sizeOf(file), 0);
}

export function largestBytes(files: readonly SourceFile[]): number {
  return files.reduce((largest, { file }) => Math.max(largest, sizeOf(file)), 0);
}

/** Estimates how many records all files hold from how many the files done held per byte. */
export class RecordEstimate {
  private bytesDone = 0;
  private readonly total: number;

  constructor(private readonly files: readonly SourceFile[]) {
    this.total = totalBytes(files);
  }

  /** Counts file `at` as done; returns the estimated total, given `records` so far. */
  fileDone(at: number, records: number): number | undefined {
    this.bytesDone += sizeOf(this.files[at]!.file);
    return this.estimate(records);
  }

  estimate(records: number): number | undefined {
    return this.bytesDone > 0 ? Math.round((records * this.total) / this.bytesDone) : undefined;
  }
}
