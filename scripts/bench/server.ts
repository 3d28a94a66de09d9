/** The bundled server as the bench starts it: its bundle, its arguments, one run against a fresh process. */
import { statSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { spawnUntil, stop } from "./processes.js";

/** The server as `npm run serve` bundles it. */
export const SERVER_BUNDLE = "dist/serve.cjs";
/**
 * And as `npm run serve` starts it: young generation capped at 4 MB per semi-space (V8's default
 * grows it to 16 MB under load, which after a sweep of the snapshot is ~25 MB of RSS kept).
 */
const SERVER_NODE_ARGS = ["--max-semi-space-size=4", SERVER_BUNDLE];

/**
 * Where a bench server keeps the usage it counts (decision: usage): beside the snapshot, in the
 * bench's folder, never the operator's ops/usage.
 */
export function benchUsageDir(snapshotDir: string): string {
  return path.join(path.dirname(path.resolve(snapshotDir)), "bench-usage");
}

/** The node arguments that start the bundled server on a snapshot (port 0: the system picks one). */
export function serverArgs(snapshotDir: string, accessFile: string, port: number): string[] {
  return [...SERVER_NODE_ARGS, "--snapshot", snapshotDir, "--access", accessFile, "--port", String(port)];
}

/** Bundles the server and the function as they run in production (no tsx at run time); the function's bytes. */
export async function bundle(): Promise<number> {
  const common = { bundle: true, platform: "node", packages: "external", logLevel: "warning" } as const;
  // CommonJS, as `npm run serve` bundles it: Node's ESM loader costs a cold start ~15 ms more here.
  await build({ ...common, format: "cjs", entryPoints: ["scripts/serve.ts"], outfile: SERVER_BUNDLE });
  await build({ ...common, format: "esm", entryPoints: ["api/v1.ts"], outfile: "dist/v1.mjs" });
  return statSync("dist/v1.mjs").size;
}

/** Runs `work` against a fresh server process, stopped afterwards. */
export async function withServer<T>(
  snapshotDir: string,
  accessFile: string,
  work: (url: string, pid: number) => Promise<T>,
): Promise<T> {
  const server = await spawnUntil("node", serverArgs(snapshotDir, accessFile, 0), /listening on/, {
    LOG_LEVEL: "silent",
    USAGE_DIR: benchUsageDir(snapshotDir),
  });
  try {
    return await work(/http:\/\/\S+/.exec(server.line)![0], server.child.pid!);
  } finally {
    await stop(server.child);
  }
}
