/**
 * Preloaded (`node --import`) into the bundled entries the tests start (entry-bundles.ts), from the
 * bundles' folder, beside the entries.json it reads. A child such a process starts the way npm's
 * scripts run the repository's entries, `node --import tsx ENTRY.ts ARGS` (a release starts its
 * build and its diff so, vercel-snapshot.ts its build), runs ENTRY's bundle instead, preloaded with
 * this module again: the same code, without tsx transpiling it on every start. Any other child,
 * and an entry of another checkout than the one bundled, starts as asked.
 */
import childProcess from "node:child_process";
import { readFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const { root, entries } = JSON.parse(readFileSync(new URL("entries.json", import.meta.url), "utf8"));
const here = path.dirname(fileURLToPath(import.meta.url));

/** tsx as a loader: the package name, or its loader module's path or URL. */
const isTsx = (loader) => loader === "tsx" || /[/\\]tsx[/\\]dist[/\\]loader\.mjs$/.test(String(loader));

/** The arguments that run the bundle of the entry `args` start under tsx, or undefined. */
function bundledArgs(command, args, options) {
  if (command !== process.execPath || !Array.isArray(args)) return undefined;
  const [flag, ...after] = args;
  const loader = flag === "--import" ? after.shift() : flag?.startsWith("--import=") ? flag.slice(9) : undefined;
  if (loader === undefined || !isTsx(loader) || typeof after[0] !== "string") return undefined;
  const entry = path
    .relative(root, path.resolve(options?.cwd ?? process.cwd(), after[0]))
    .split(path.sep)
    .join("/");
  const bundle = entries[entry];
  return bundle && ["--import", import.meta.url, path.join(here, bundle), ...after.slice(1)];
}

for (const name of ["spawn", "spawnSync", "execFile", "execFileSync"]) {
  const original = childProcess[name];
  childProcess[name] = function (command, args, ...rest) {
    const options = rest[0] !== null && typeof rest[0] === "object" ? rest[0] : undefined;
    return original.call(this, command, bundledArgs(command, args, options) ?? args, ...rest);
  };
}
// The bundles import these functions as ES module bindings: let them see the ones above.
syncBuiltinESMExports();
