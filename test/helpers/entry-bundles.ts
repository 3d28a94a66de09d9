/**
 * The command-line entries the tests start as processes, each bundled with esbuild into one module
 * once per test run (test/global-setup.ts), as `npm run serve` runs dist/serve.cjs: a process that
 * ran `node --import tsx ENTRY.ts` loaded tsx and transpiled every module on start (0.75 s of CPU
 * against 0.2 s for the bundle, and a release is seven such processes). The bundle is the same code:
 * every `import.meta.url` is written as its source file's URL, so paths the code finds beside itself
 * (public/, worker modules, tsx, the repository root) are the same as under tsx, and packages stay
 * imports, resolved from this repository's node_modules.
 *
 * Bundles are kept in node_modules/.cache/cinema-test-bundles/<key>, the key a hash of every source
 * file the last bundling read: a run whose sources are unchanged bundles nothing. A process that
 * starts another entry as its npm script does (a release its build, vercel-snapshot.ts its build) runs
 * that entry's bundle too, through the preload bundled-children.mjs.
 */
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Repository paths of the entries bundled: the CLIs tests start, and the helpers that run as processes. */
export const BUNDLED_ENTRIES = [
  "build/index.ts",
  "scripts/demo-data.ts",
  "scripts/diff.ts",
  "scripts/gateway-secret.ts",
  "scripts/generate.ts",
  "scripts/keys.ts",
  "scripts/release.ts",
  "scripts/serve.ts",
  "scripts/start.ts",
  "scripts/vercel-snapshot.ts",
  "test/helpers/build-killed-at-swap.ts",
  "test/helpers/lock-contender.mjs",
  "test/helpers/lock-holder.ts",
] as const;
export type BundledEntry = (typeof BUNDLED_ENTRIES)[number];

const CACHE = path.join(ROOT, "node_modules/.cache/cinema-test-bundles");
/** The preload copied beside the bundles, and the map it reads: entry → bundle, both repository-relative. */
const PRELOAD = "bundled-children.mjs";
export const ENTRIES_FILE = "entries.json";
/** Bumped when what a bundle holds changes other than by its sources (options, the plugin). */
const FORMAT = 1;
/** Bundles of other sources kept this long after their last use, for runs still using them. */
const KEEP_UNUSED_MS = 6 * 60 * 60 * 1000;

/** `import.meta.url` (and its dirname, filename) as the source file's own, as tsx would have it. */
const sourceUrls: Plugin = {
  name: "source-urls",
  setup(build) {
    build.onLoad({ filter: /\.(ts|mjs)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta")) return undefined;
      const contents = text
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
        .replaceAll("import.meta.filename", JSON.stringify(args.path));
      return { contents, loader: args.path.endsWith(".ts") ? "ts" : "js" };
    });
  },
};

/** The key of a set of source files: their paths and bytes, and how they are bundled. */
async function keyOf(inputs: string[]): Promise<string> {
  const { version } = await import("esbuild");
  const hash = createHash("sha256").update(JSON.stringify({ FORMAT, version, ROOT, BUNDLED_ENTRIES }));
  for (const input of [...inputs].sort()) {
    const file = path.join(ROOT, input);
    hash.update(`\0${input}\0`);
    if (existsSync(file)) hash.update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

/** The inputs the last bundling read, or undefined when there was none. */
function lastInputs(): string[] | undefined {
  try {
    return JSON.parse(readFileSync(path.join(CACHE, "inputs.json"), "utf8")) as string[];
  } catch {
    return undefined;
  }
}

function writeAtomically(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

/** Bundles of other sources, unused for a while, removed. */
function prune(keep: string): void {
  for (const name of readdirSync(CACHE)) {
    const dir = path.join(CACHE, name);
    if (name === keep || name === "inputs.json") continue;
    try {
      if (Date.now() - statSync(dir).mtimeMs > KEEP_UNUSED_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
}

/** Bundles every entry into a new folder of the cache; the folder, named by its sources' key. */
async function bundleAll(): Promise<string> {
  const { build } = await import("esbuild");
  mkdirSync(CACHE, { recursive: true });
  const temp = mkdtempSync(path.join(CACHE, "tmp-"));
  try {
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: Object.fromEntries(BUNDLED_ENTRIES.map((entry) => [entry.replace(/\.(ts|mjs)$/, ""), entry])),
      outdir: temp,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      metafile: true,
      logLevel: "warning",
      plugins: [sourceUrls],
    });
    const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith("node_modules/"));
    inputs.push(`test/helpers/${PRELOAD}`, "test/helpers/entry-bundles.ts");
    const entries = Object.fromEntries(BUNDLED_ENTRIES.map((entry) => [entry, entry.replace(/\.(ts|mjs)$/, ".mjs")]));
    writeFileSync(path.join(temp, ENTRIES_FILE), JSON.stringify({ root: ROOT, entries }, null, 2));
    cpSync(path.join(ROOT, "test/helpers", PRELOAD), path.join(temp, PRELOAD));
    const key = await keyOf(inputs);
    const dir = path.join(CACHE, key);
    try {
      renameSync(temp, dir);
    } catch {
      // Another run bundled the same sources first: theirs is the same.
      rmSync(temp, { recursive: true, force: true });
    }
    writeAtomically(path.join(CACHE, "inputs.json"), JSON.stringify(inputs));
    return dir;
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
}

/** The folder of this run's bundles: the cached one when its sources are unchanged, else made now. */
export async function prepareBundles(): Promise<string> {
  const inputs = lastInputs();
  let dir = inputs && path.join(CACHE, await keyOf(inputs));
  if (!dir || !existsSync(path.join(dir, ENTRIES_FILE))) dir = await bundleAll();
  const now = new Date();
  utimesSync(dir, now, now);
  prune(path.basename(dir));
  return dir;
}
