/**
 * The local server's snapshot and its log lines: each snapshot taken into service, and a rebuilt
 * one that cannot be opened while the last stays in service (docs/operations.md, "Logs"). A timer
 * looks for a rebuild, so the new snapshot is opened, and logged, off the request path.
 */
import type { Server } from "node:http";
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

/**
 * Looks at the snapshot every `everyMs` while the server runs: a rebuilt one is then opened by this
 * timer rather than inside a request, and its line is written within that time, traffic or not. One
 * that cannot be read is answered (503) and logged by the requests, not here.
 */
export function watchSnapshot(server: Server, snapshots: SnapshotSource, everyMs: number): void {
  const look = () => {
    try {
      snapshots.current();
    } catch {
      // The requests' 503 says it.
    }
  };
  const timer = setInterval(look, everyMs);
  timer.unref();
  server.once("close", () => clearInterval(timer));
}
