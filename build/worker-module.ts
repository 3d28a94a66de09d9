/**
 * Worker threads cannot load TypeScript, so a worker entry is bundled with esbuild into one
 * self-contained module in the temp folder when a build starts (~tens of ms). Undefined when it
 * cannot be (esbuild is a dev dependency): callers then do the work on the main thread.
 */
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export async function bundleWorkerModule(entry: URL): Promise<string | undefined> {
  try {
    const { buildSync } = await import("esbuild");
    const out = buildSync({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      external: ["esbuild"],
      logLevel: "silent",
    });
    const name = `cinema-${path.basename(entry.pathname, ".ts")}-${process.pid}-${Date.now().toString(36)}.mjs`;
    const file = path.join(tmpdir(), name);
    writeFileSync(file, out.outputFiles[0]!.text);
    return file;
  } catch {
    return undefined;
  }
}

/** Removes a bundled worker module once its workers have started or stopped. */
export function removeWorkerModule(file: string): void {
  rmSync(file, { force: true });
}
