/**
 * The snapshot being served. Startup reads nothing; the manifest is read on first use and its
 * stat looked at again at most every `recheckMs`, so a rebuilt snapshot swapped in under a running
 * server is picked up. A new snapshot is opened whole (every data file against its manifest)
 * before it replaces the old one, so reads never mix two snapshots; one that cannot be opened
 * replaces nothing, and the old one stays in service (its files are open, whatever became of the
 * folder) until a rebuild that can be opened comes.
 */
import { statSync } from "node:fs";
import { SnapshotError } from "../primitives/errors.js";
import { restoreInterruptedSwap } from "./interrupted-swap.js";
import { MANIFEST_FILE, resolveInside } from "../primitives/files.js";
import type { Manifest } from "../layout/manifest.js";
import { DEFAULT_BUDGETS, readManifest, Snapshot, type CacheBudgets } from "./snapshot.js";

export interface SourceOptions {
  /** How often to look for a replaced snapshot (0: on every use). */
  recheckMs?: number;
  budgets?: CacheBudgets;
  /** Told of each snapshot taken into service: the first opened, then each rebuilt one. */
  onServing?: (snapshot: Snapshot) => void;
  /** Told, once per problem, that a rebuilt snapshot cannot be opened and `serving` stays in service. */
  onNotTaken?: (problem: SnapshotError, serving: Snapshot) => void;
  /**
   * Throws a SnapshotError when a manifest is not the snapshot wanted here (a market's folder holding
   * another market's snapshot): checked before its files are opened.
   */
  check?: (manifest: Manifest) => void;
  /** The folder's name within a larger one (a market's id), which the problems of opening it name first. */
  within?: string;
}

/** What failed to open a snapshot, as a SnapshotError naming the file at fault (inside `within`, if given). */
function snapshotProblem(error: unknown, within: string | undefined): SnapshotError {
  let problem: SnapshotError;
  if (error instanceof SnapshotError) problem = error;
  else {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    problem = new SnapshotError(MANIFEST_FILE, `cannot be read (${reason})`);
  }
  return within === undefined ? problem : new SnapshotError(`${within}/${problem.file}`, problem.reason);
}

/** What identifies one manifest file (a rebuild writes a new one), and when it was written. */
function stampOf(path: string): { stamp: string; mtimeMs: number } {
  const stat = statSync(path);
  return { stamp: `${stat.ino}:${stat.mtimeMs}:${stat.size}`, mtimeMs: stat.mtimeMs };
}

/**
 * The manifest's stamp; with none, after putting back the snapshot a build killed mid-swap left
 * aside (decision: a build's swap), if there is one. An empty stamp: no manifest.
 */
export function stampOrRestore(dir: string, path: string): { stamp: string; mtimeMs: number } {
  for (const attempt of [1, 2]) {
    try {
      return stampOf(path);
    } catch {
      if (attempt === 2 || !restoreInterruptedSwap(dir)) break;
    }
  }
  return { stamp: "", mtimeMs: 0 };
}

export class SnapshotSource {
  private snapshot: Snapshot | undefined;
  /** The manifest's stat when the snapshot (or the failure) was taken. */
  private stamp = "";
  private checkedAt = 0;
  private failure: SnapshotError | undefined;
  /** The rebuilt manifest that could not be opened, and why, as last reported (reported once). */
  private notTaken: string | undefined;
  /** When the snapshot in service was written: its manifest's modification time. */
  builtAt: string | undefined;

  constructor(
    readonly dir: string,
    private readonly options: SourceOptions = {},
  ) {}

  /** What each snapshot it opens may keep in memory. */
  get budgets(): CacheBudgets {
    return this.options.budgets ?? DEFAULT_BUDGETS;
  }

  /** The snapshot in service; throws SnapshotError when there is none that can be read. */
  current(): Snapshot {
    const now = Date.now();
    const recheckMs = this.options.recheckMs ?? 0;
    if (this.snapshot && now - this.checkedAt < recheckMs) return this.snapshot;
    const path = resolveInside(this.dir, MANIFEST_FILE);
    // No manifest: reported below as the snapshot missing.
    const { stamp, mtimeMs } = stampOrRestore(this.dir, path);
    // While there is no snapshot, a manifest that appears (a first build) is taken at once; one
    // that fails to open is tried again only when it changes or recheckMs has passed.
    if (this.failure && stamp === this.stamp && now - this.checkedAt < recheckMs) throw this.failure;
    if (this.snapshot && stamp === this.stamp) {
      this.checkedAt = now;
      return this.snapshot;
    }
    this.checkedAt = now;
    let opened: Snapshot;
    try {
      opened = this.open(path, stamp);
    } catch (error) {
      const problem = snapshotProblem(error, this.options.within);
      if (this.snapshot) return this.keep(problem, stamp);
      this.replace(undefined, stamp);
      this.failure = problem;
      throw problem;
    }
    this.replace(opened, stamp);
    this.builtAt = new Date(mtimeMs).toISOString();
    this.options.onServing?.(opened);
    return opened;
  }

  /** Opens the snapshot whose manifest has `stamp`; throws what keeps it from being served. */
  private open(path: string, stamp: string): Snapshot {
    if (stamp === "") throw new SnapshotError(MANIFEST_FILE, "does not exist: build a snapshot first (npm run build)");
    const manifest = readManifest(this.dir);
    this.options.check?.(manifest);
    const opened = new Snapshot(manifest, this.dir, this.budgets);
    // A rebuild swaps the whole folder: files opened now and a manifest unchanged since are one snapshot.
    if (stampOf(path).stamp !== stamp) {
      opened.close();
      throw new SnapshotError(MANIFEST_FILE, "was replaced while the snapshot was being opened");
    }
    return opened;
  }

  /**
   * The snapshot in service, kept over a rebuilt one that cannot be opened (tried again at the next
   * look); the problem is told once, not at every look, until another rebuild or another problem.
   */
  private keep(problem: SnapshotError, stamp: string): Snapshot {
    const serving = this.snapshot!;
    const notTaken = `${stamp} ${problem.message}`;
    if (notTaken !== this.notTaken) this.options.onNotTaken?.(problem, serving);
    this.notTaken = notTaken;
    return serving;
  }

  private replace(next: Snapshot | undefined, stamp: string): void {
    // Requests read synchronously once admitted, so no read is in flight on the old files.
    if (this.snapshot !== next) this.snapshot?.close();
    this.snapshot = next;
    this.stamp = stamp;
    this.builtAt = undefined;
    this.notTaken = undefined;
    if (next) this.failure = undefined;
  }

  /** Forgets the open snapshot and closes its files. */
  close(): void {
    this.replace(undefined, "");
  }
}
