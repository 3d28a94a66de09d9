/**
 * The local server's snapshot and its log lines: each snapshot taken into service, and a rebuilt
 * one that cannot be opened while the last stays in service (docs/operations.md, "Logs"). A timer
 * looks for a rebuild, so the new snapshot is opened, and logged, off the request path. The folder
 * may hold one snapshot or a multi-market folder's markets (decision: markets), and a rebuild may
 * turn it from one into the other: the timer follows that too.
 */
import { existsSync } from "node:fs";
import type { Server } from "node:http";
import type { ServedFolder } from "../../api/_core/handle-request.js";
import { MANIFEST_FILE, resolveInside } from "../../api/_core/format/primitives/files.js";
import { isMarketsFolder } from "../../api/_core/format/read/markets-folder.js";
import { MarketsSource } from "../../api/_core/format/read/markets-source.js";
import { SnapshotSource } from "../../api/_core/format/read/snapshot-source.js";
import type { OperationLog } from "../../api/_core/log/request-log.js";

/** Where the lines about the snapshot in service go. */
export type SnapshotLog = Pick<OperationLog, "serving" | "notTaken">;

/** A source of the snapshot in `dir`, looked at again every `recheckMs` at most, that tells `log`. */
export function loggedSnapshots(dir: string, recheckMs: number, log: SnapshotLog | undefined): SnapshotSource {
  return new SnapshotSource(dir, {
    recheckMs,
    onServing: (snapshot) => log?.serving(snapshot.manifest),
    onNotTaken: (problem, serving) => log?.notTaken(problem.message, serving.manifest.snapshotId),
  });
}

/** The markets of a multi-market folder in `dir`, each looked at again every `recheckMs` at most, telling `log`. */
export function loggedMarkets(dir: string, recheckMs: number, log: SnapshotLog | undefined): MarketsSource {
  return new MarketsSource(dir, {
    recheckMs,
    // One process serves every market: they share what one snapshot's caches may hold.
    shared: true,
    onServing: (snapshot) => log?.serving(snapshot.manifest),
    onNotTaken: (problem, servingId, market) => log?.notTaken(problem.message, servingId, market),
  });
}

/** What a server looks at on its timer. */
export interface Watched {
  look(): void;
}

/**
 * The folder a local server serves: its markets while it holds a multi-market folder's index, else
 * its one snapshot (`single`, which also says that none has been built yet).
 */
export class FolderSource implements ServedFolder, Watched {
  markets: MarketsSource | undefined;

  constructor(
    readonly dir: string,
    readonly single: SnapshotSource,
    private readonly openMarkets: () => MarketsSource,
  ) {
    this.follow();
  }

  /**
   * Serves what the folder holds now: markets once it has an index, one snapshot once it has a
   * manifest and no index. A folder with neither (mid-swap, or not built) keeps what it served.
   */
  follow(): void {
    if (isMarketsFolder(this.dir)) {
      if (this.markets) return;
      this.markets = this.openMarkets();
      this.single.close();
    } else if (this.markets && existsSync(resolveInside(this.dir, MANIFEST_FILE))) {
      this.markets.close();
      this.markets = undefined;
    }
  }

  look(): void {
    this.follow();
    if (this.markets) this.markets.look();
    else lookAt(this.single);
  }
}

/** Opens a rebuilt snapshot now, if there is one; one that cannot be read is the requests' 503 to say. */
function lookAt(snapshots: SnapshotSource): void {
  try {
    snapshots.current();
  } catch {
    // The requests' 503 says it.
  }
}

/**
 * Looks at the snapshot (or the markets) every `everyMs` while the server runs: a rebuilt one is then
 * opened by this timer rather than inside a request, and its line is written within that time,
 * traffic or not. One that cannot be read is answered (503) and logged by the requests, not here.
 */
export function watchSnapshot(server: Server, watched: SnapshotSource | Watched, everyMs: number): void {
  const look = watched instanceof SnapshotSource ? () => lookAt(watched) : () => watched.look();
  const timer = setInterval(look, everyMs);
  timer.unref();
  server.once("close", () => clearInterval(timer));
}
