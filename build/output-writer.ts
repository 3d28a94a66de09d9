/**
 * Writes the snapshot into a staging folder beside the target, then swaps it in, so a failed or
 * interrupted build leaves the previous snapshot exactly as it was (v1 issue, part 1).
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, writeSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import path from "node:path";
import { resolveInside } from "../api/_core/layout.js";
import type { OutputWriter } from "./context.js";

export interface DiskWriter extends OutputWriter {
  /** Files and bytes written so far. */
  stats(): { files: number; bytes: number };
}

/** Creates a writer whose files become `outDir` only on commit. */
export function createDiskWriter(outDir: string): DiskWriter {
  const target = path.resolve(outDir);
  const staging = `${target}.staging-${process.pid}-${Date.now().toString(36)}`;
  const madeDirs = new Set<string>();
  const identity = createHash("sha256");
  let files = 0;
  let bytes = 0;

  function prepare(relativePath: string): string {
    const full = resolveInside(staging, relativePath);
    const dir = path.dirname(full);
    if (!madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
    }
    files++;
    identity.update(`${relativePath}\n`);
    return full;
  }

  function record(chunk: Buffer): void {
    bytes += chunk.length;
    identity.update(chunk);
  }

  return {
    write(relativePath, chunk) {
      const fd = openSync(prepare(relativePath), "wx");
      try {
        writeSync(fd, chunk);
      } finally {
        closeSync(fd);
      }
      record(chunk);
    },
    openAppend(relativePath) {
      const fd = openSync(prepare(relativePath), "wx");
      return {
        append(chunk) {
          writeSync(fd, chunk);
          record(chunk);
        },
        close: () => closeSync(fd),
      };
    },
    async commit() {
      mkdirSync(staging, { recursive: true });
      const previous = `${target}.previous-${process.pid}-${Date.now().toString(36)}`;
      const hadPrevious = existsSync(target);
      if (hadPrevious) await rename(target, previous);
      await rename(staging, target);
      if (hadPrevious) await rm(previous, { recursive: true, force: true });
    },
    async abort() {
      await rm(staging, { recursive: true, force: true });
    },
    stats: () => ({ files, bytes }),
    digest: () => identity.copy().digest("hex").slice(0, 32),
  };
}
