/**
 * A build that is killed (SIGKILL, nothing of it runs on) at the worst instant of its swap: the
 * old snapshot renamed aside, the new one not yet renamed in. Usage: build-killed-at-swap.ts DATA OUT
 */
import { runBuild } from "../../build/run-build.js";
import { createDiskWriter } from "../../build/write/output-writer.js";

const [dataDir, outDir] = process.argv.slice(2) as [string, string];
const output = createDiskWriter(outDir, { betweenRenames: () => process.kill(process.pid, "SIGKILL") });
await runBuild({ dataDir, output, gzipLevel: 1, gzipWorkers: 0, validateWorkers: 0 });
// Not reached: the kill above ends the process.
process.exit(3);
