/**
 * `npm run vercel-snapshot`: the snapshot part of vercel.json's build command, run by every
 * `vercel build`, on Vercel or here (decision: prebuilt releases). It decides where the snapshot
 * the deployment bundles (snapshot/) comes from:
 *
 * - RELEASE_SNAPSHOT_ID set: `npm run release` already put its candidate in snapshot/ (of its
 *   working folder, where it runs `vercel build`); only check that snapshot/ holds that snapshot.
 *   Production data never has to be in the repository.
 * - otherwise, RELEASE_ONLY=1 (set in a project deployed by releases): stop, so a plain
 *   `vercel deploy` cannot replace the released data with the demo data in data/.
 * - otherwise: build data/ into snapshot/, as a clone deployed with a plain `vercel deploy` needs.
 *
 * Then vercel.json's build command writes the gateway secret (npm run gateway-secret).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { isMarketsFolder } from "../api/_core/format/read/markets-folder.js";
import { readManifest } from "../api/_core/format/read/snapshot.js";

const SNAPSHOT = "snapshot";

function fail(message: string): never {
  process.stderr.write(`vercel-snapshot: ${message}\n`);
  process.exit(1);
}

/**
 * A snapshot of several markets is served by `npm start` and `npm run serve`; on Vercel the gateway and
 * the function serve one snapshot until they route by market (decision: markets, deployed per market),
 * so such a deployment stops here, saying so, rather than answering 503 once deployed.
 */
function refuseMarkets(): void {
  if (!isMarketsFolder(SNAPSHOT)) return;
  fail(
    `${SNAPSHOT}/ holds several markets (the data has markets.json): a deployment on Vercel serves one ` +
      "snapshot for now; serve markets with npm start or npm run serve, or deploy one market's data",
  );
}

function checkReleased(expected: string): void {
  refuseMarkets();
  let found: string;
  try {
    found = readManifest(SNAPSHOT).snapshotId;
  } catch (error) {
    fail(`RELEASE_SNAPSHOT_ID is set but ${SNAPSHOT}/ is not a snapshot (${(error as Error).message})`);
  }
  if (found !== expected) fail(`${SNAPSHOT}/ holds snapshot ${found}, not ${expected} (RELEASE_SNAPSHOT_ID)`);
  process.stdout.write(`vercel-snapshot: bundling snapshot ${found}, prepared by npm run release\n`);
}

function buildData(): void {
  const build = path.join("build", "index.ts");
  const result = spawnSync(process.execPath, ["--import", "tsx", build, "--data", "data", "--out", SNAPSHOT], {
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  refuseMarkets();
}

const released = process.env.RELEASE_SNAPSHOT_ID;
if (released) checkReleased(released);
else if (process.env.RELEASE_ONLY === "1")
  fail(
    "this project is deployed with npm run release (RELEASE_ONLY=1 in its environment): a build from data/ " +
      "would replace the released listings with the repository's demo data. Run npm run release -- --data DIR --prod",
  );
else buildData();
