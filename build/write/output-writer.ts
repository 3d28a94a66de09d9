/**
 * Writes the snapshot into a staging folder beside the target, then swaps it in: the old snapshot
 * renamed aside, the new one renamed in. A failed build leaves the previous snapshot exactly as it
 * was; one killed between the two renames leaves it aside, and the next build (or a server opening
 * the folder) puts it back first (decision: a build's swap).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync, writeSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import path from "node:path";
import { resolveInside } from "../../api/_core/format/primitives/files.js";
import { swapFolderOf } from "../../api/_core/format/layout/swap-folders.js";
import { restoreInterruptedSwap, swapLeftovers } from "../../api/_core/format/read/interrupted-swap.js";

/** Where the snapshot's files go; the disk writer stages them and swaps them in on commit. */
export interface OutputWriter {
  /** The folder files are written into until commit (the build reads back what it wrote). */
  readonly root: string;
  write(relativePath: string, bytes: Buffer): void;
  /** Opens a file written in pieces. */
  openAppend(relativePath: string): { append(bytes: Buffer): void; close(): void };
  /** Makes the written files the snapshot, atomically replacing any previous one. */
  commit(): Promise<void>;
  /** A digest of every path and its bytes written so far, independent of write order: the snapshot's identity. */
  digest(): string;
  /** Throws away everything written. */
  abort(): Promise<void>;
  /**
   * A writer of the folder `name` inside this one (a market's snapshot: decision: markets), whose
   * digest covers its own files; it is committed, or thrown away, with the whole.
   */
  folder(name: string): OutputWriter;
}

export interface DiskWriter extends OutputWriter {
  /** Files and bytes written so far. */
  stats(): { files: number; bytes: number };
}

/** Deletes a folder; `rm -rf` is several times faster than fs.rm on a tree of many small files. */
function removeTree(dir: string): Promise<void> {
  return new Promise((resolve) => {
    execFile("rm", ["-rf", dir], (error) =>
      error ? rm(dir, { recursive: true, force: true }).then(resolve, () => resolve()) : resolve(),
    );
  });
}

const APPEND_BUFFER_BYTES = 1 << 20;

/**
 * Modes of the snapshot's files and folders whatever the umask: readable by every user, because on
 * Vercel the function may run as another user than the one who built it (decision: gateway secret).
 */
const FILE_MODE = 0o644;
const FOLDER_MODE = 0o755;

/** Opens a new file for writing, with FILE_MODE (a mode given to open is narrowed by the umask; fchmod is not). */
function openNew(full: string): number {
  const fd = openSync(full, "wx");
  fchmodSync(fd, FILE_MODE);
  return fd;
}

/** writeSync may write less than asked (large chunks, signals): loop until all is written. */
function writeAll(fd: number, chunk: Buffer): void {
  for (let done = 0; done < chunk.length; ) done += writeSync(fd, chunk, done, chunk.length - done);
}

export interface WriterHooks {
  /** Called between the swap's two renames: the test that kills a build at that instant. */
  betweenRenames?: () => void;
}

/** Removes what builds that were killed left beside the target: staged snapshots and old ones set aside. */
async function removeLeftovers(target: string): Promise<void> {
  for (const folder of swapLeftovers(target)) await removeTree(folder.path);
}

/** Files and bytes written so far, over every folder of one writer. */
interface Tally {
  files: number;
  bytes: number;
}

/**
 * The writing half of a writer, for the files under `folder` of the staging folder ("" for its top):
 * paths are relative to that folder, and its digest covers its own files alone.
 */
function createFiles(staging: string, folder: string, tally: Tally, madeDirs: Set<string>) {
  const root = folder === "" ? staging : resolveInside(staging, folder);
  // XOR of per-file digests: the same files give the same identity whatever order they were written in.
  const identity = Buffer.alloc(32);

  function prepare(relativePath: string): string {
    const full = resolveInside(root, relativePath);
    const dir = path.dirname(full);
    if (!madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      // Every folder between the staging folder and this one, as made.
      for (let d = dir; d.length > staging.length && !madeDirs.has(d); d = path.dirname(d)) chmodSync(d, FOLDER_MODE);
      madeDirs.add(dir);
    }
    tally.files++;
    return full;
  }

  function fileHash(relativePath: string) {
    return createHash("sha256").update(`${relativePath}\n`);
  }

  function combine(hash: ReturnType<typeof createHash>): void {
    const digest = hash.digest();
    for (let i = 0; i < 32; i++) identity[i]! ^= digest[i]!;
  }

  return {
    root,
    write(relativePath: string, chunk: Buffer) {
      const fd = openNew(prepare(relativePath));
      try {
        writeAll(fd, chunk);
      } finally {
        closeSync(fd);
      }
      tally.bytes += chunk.length;
      combine(fileHash(relativePath).update(chunk));
    },
    openAppend(relativePath: string) {
      const fd = openNew(prepare(relativePath));
      const hash = fileHash(relativePath);
      // Millions of small appends (one per record) cost a system call and a hash update each
      // unless gathered: both happen per megabyte.
      const buffer = Buffer.allocUnsafe(APPEND_BUFFER_BYTES);
      let used = 0;
      const put = (chunk: Buffer) => {
        writeAll(fd, chunk);
        hash.update(chunk);
      };
      const flush = () => {
        if (used > 0) put(buffer.subarray(0, used));
        used = 0;
      };
      return {
        append(chunk: Buffer) {
          tally.bytes += chunk.length;
          if (used + chunk.length > buffer.length) flush();
          if (chunk.length >= buffer.length) put(chunk);
          else used += chunk.copy(buffer, used);
        },
        close() {
          flush();
          closeSync(fd);
          combine(hash);
        },
      };
    },
    digest: () => identity.toString("hex").slice(0, 32),
  };
}

/**
 * Creates a writer whose files become `outDir` only on commit. A snapshot a killed build left aside
 * is put back first, so the build (and --out as the previous snapshot) finds it.
 */
export function createDiskWriter(outDir: string, hooks: WriterHooks = {}): DiskWriter {
  const target = path.resolve(outDir);
  restoreInterruptedSwap(target);
  const staging = swapFolderOf(target, "staging", process.pid, Date.now());
  const madeDirs = new Set<string>();
  const tally: Tally = { files: 0, bytes: 0 };
  mkdirSync(staging, { recursive: true });
  chmodSync(staging, FOLDER_MODE);

  async function abort(): Promise<void> {
    await removeTree(staging);
  }

  /** A writer of one folder inside the staging one: committed, or thrown away, with the whole. */
  function folderWriter(folder: string): OutputWriter {
    return {
      ...createFiles(staging, folder, tally, madeDirs),
      commit: () => Promise.reject(new Error(`${folder}/ is committed with the folder it lies in`)),
      abort,
      folder: (name) => folderWriter(`${folder}/${name}`),
    };
  }

  return {
    ...createFiles(staging, "", tally, madeDirs),
    async commit() {
      mkdirSync(staging, { recursive: true });
      const previous = swapFolderOf(target, "previous", process.pid, Date.now());
      const hadPrevious = existsSync(target);
      if (hadPrevious) await rename(target, previous);
      hooks.betweenRenames?.();
      await rename(staging, target);
      if (hadPrevious) await removeTree(previous);
      await removeLeftovers(target);
    },
    abort,
    folder: folderWriter,
    stats: () => ({ ...tally }),
  };
}
