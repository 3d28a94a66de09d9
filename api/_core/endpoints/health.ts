/**
 * `GET /healthz` (decision: health check): for uptime checks and load balancers, without a key
 * and never rate-limited. 200 with the snapshot in service when it can be read, else the 503 every
 * API request would get. No listings data.
 */
import { requireReadMethod } from "../respond/errors.js";
import type { MarketsSource } from "../format/read/markets-source.js";
import type { SnapshotSource } from "../format/read/snapshot-source.js";
import { JSON_TYPE, type Outgoing } from "../respond/respond.js";

export const HEALTH_PATH = "/healthz";

/** Whether a target (origin-form) asks for the health check; its query, if any, is ignored. */
export function isHealthCheck(url: string): boolean {
  return url.startsWith(HEALTH_PATH) && (url.length === HEALTH_PATH.length || url[HEALTH_PATH.length] === "?");
}

/** The health answer; throws the error a failing snapshot or method gives (the caller's envelope). */
export function checkHealth(method: string, snapshots: SnapshotSource): Outgoing {
  requireReadMethod(method);
  const { manifest } = snapshots.current();
  const body = { status: "ok", snapshotId: manifest.snapshotId, builtAt: snapshots.builtAt ?? null };
  return {
    status: 200,
    headers: { "content-type": JSON_TYPE, "cache-control": "no-store" },
    body: Buffer.from(JSON.stringify(body)),
  };
}

/**
 * The health answer of a multi-market folder (decision: markets): 200 with each market's snapshot
 * when the index and every market can be read; otherwise the 503 of the first that cannot, which its
 * requests get too (a server with a market down is not healthy, though the others are served).
 */
export function checkMarketsHealth(method: string, markets: MarketsSource): Outgoing {
  requireReadMethod(method);
  const served = [...markets.markets().values()].map(({ market, source }) => ({
    id: market.id,
    snapshotId: source.current().manifest.snapshotId,
    builtAt: source.builtAt ?? null,
  }));
  return {
    status: 200,
    headers: { "content-type": JSON_TYPE, "cache-control": "no-store" },
    body: Buffer.from(JSON.stringify({ status: "ok", markets: served })),
  };
}
