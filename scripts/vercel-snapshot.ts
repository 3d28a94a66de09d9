/**
 * `npm run vercel-snapshot`: the snapshot part of vercel.json's build command, run by every
 * `vercel build`, on Vercel or here (decision: prebuilt releases). It decides where the snapshot
 * the deployment bundles (snapshot/) comes from:
 *
 * - RELEASE_SNAPSHOT_ID set: `npm run release` already put its candidate in snapshot/ (of its
 *   working folder, where it runs `vercel build`); only check that snapshot/ holds that snapshot.
 *   Production data never has to be in the repository. A folder of markets is named by its index's
 *   id (marketsIndexId); the gateway and the function serve it by market.
 * - otherwise, RELEASE_ONLY=1 (set in a project deployed by releases): stop, so a plain
 *   `vercel deploy` cannot replace the released data with the demo data in data/.
 * - otherwise: build data/ into snapshot/, as a clone deployed with a plain `vercel deploy` needs.
 *
 * Then vercel.json's build command writes the gateway secret (npm run gateway-secret).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { marketsIndexId, requireSummary } from "../api/_core/format/layout/markets-index.js";
import { isMarketsFolder, readMarketsIndex } from "../api/_core/format/read/markets-folder.js";
import { readManifest } from "../api/_core/format/read/snapshot.js";

const SNAPSHOT = "snapshot";

function fail(message: string): never {
  process.stderr.write(`vercel-snapshot: ${message}\n`);
  process.exit(1);
}

/**
 * What snapshot/ holds: one snapshot's id, or a multi-market folder's (its index's id, decision:
 * markets, deployed per market) and its markets, which the gateway and each market's function serve.
 */
function bundled(): { id: string; what: string } {
  if (!isMarketsFolder(SNAPSHOT)) return { id: readManifest(SNAPSHOT).snapshotId, what: "snapshot" };
  const index = readMarketsIndex(SNAPSHOT);
  // An index from before the summaries (format 1) would deploy a GET /markets that answers 503.
  index.markets.forEach(requireSummary);
  return { id: marketsIndexId(index), what: `markets ${index.markets.map((m) => m.id).join(", ")} (index` };
}

function checkReleased(expected: string): void {
  let found: { id: string; what: string };
  try {
    found = bundled();
  } catch (error) {
    fail(`RELEASE_SNAPSHOT_ID is set but ${SNAPSHOT}/ is not a snapshot (${(error as Error).message})`);
  }
  const named = `${found.what} ${found.id}${found.what === "snapshot" ? "" : ")"}`;
  if (found.id !== expected) fail(`${SNAPSHOT}/ holds ${named}, not ${expected} (RELEASE_SNAPSHOT_ID)`);
  process.stdout.write(`vercel-snapshot: bundling ${named}, prepared by npm run release\n`);
}

function buildData(): void {
  const build = path.join("build", "index.ts");
  const result = spawnSync(process.execPath, ["--import", "tsx", build, "--data", "data", "--out", SNAPSHOT], {
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const released = process.env.RELEASE_SNAPSHOT_ID;
if (released) checkReleased(released);
else if (process.env.RELEASE_ONLY === "1")
  fail(
    "this project is deployed with npm run release (RELEASE_ONLY=1 in its environment): a build from data/ " +
      "would replace the released listings with the repository's demo data. Run npm run release -- --data DIR --prod",
  );
else buildData();
