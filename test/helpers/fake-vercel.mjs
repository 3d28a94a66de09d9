#!/usr/bin/env node
/**
 * A stand-in for the `vercel` CLI, put first on PATH by the release tests: no network, no account.
 * Every call appends one JSON line to $FAKE_VERCEL_LOG: its arguments, its exit status, whether
 * telemetry was turned off and, for a deploy, the snapshot id the upload carried. `pull` writes the
 * target's environment file, readable by all as a careless CLI might leave it. `build` records the
 * project it built for and the modes of the environment files beside it, runs vercel.json's build
 * command as the real CLI does (so the snapshot step and the gateway secret are the project's own)
 * and then writes a Build Output API folder shaped like the pinned CLI's (checked by
 * scripts/vercel/output.ts), its files with the modes the umask leaves, as the CLI's. A deploy of
 * a multi-market output (split per market after the build) logs each market's snapshot id.
 *
 * $FAKE_VERCEL_FAIL=pull|build|deploy makes that command fail (exit 1); $FAKE_VERCEL_OVERSIZE=1
 * makes build add a 251 MB (sparse) file to the function. $FAKE_VERCEL_BUNDLES (the folder of the
 * tests' bundled entries, test/helpers/entry-bundles.ts) runs a build command of `npm run NAME`
 * steps as each script's bundle, without npm and tsx: the same scripts, a second of CPU less each.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  appendFileSync,
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const command = args[0];
const cwd = process.cwd();
const output = path.join(cwd, ".vercel/output");
// Whether the caller turned the CLI's telemetry off (the real CLI posts it to Vercel otherwise).
const entry = { args, cwd, telemetry: process.env.VERCEL_TELEMETRY_DISABLED === "1" ? "off" : "on" };

function finish(code, extra = {}) {
  if (process.env.FAKE_VERCEL_LOG)
    appendFileSync(process.env.FAKE_VERCEL_LOG, `${JSON.stringify({ ...entry, ...extra, exit: code })}\n`);
  process.exit(code);
}

if (process.env.FAKE_VERCEL_FAIL === command) {
  process.stderr.write(`Error: ${command} failed (FAKE_VERCEL_FAIL)\n`);
  finish(1);
}

/** The routes the pinned CLI writes for this repository's vercel.json and middleware.ts. */
const ROUTES = [
  {
    src:
      "^\\/v1[\\/#\\?]?$|^\\/v1(?:\\/((?:[^\\/#\\?]+?)(?:\\/(?:[^\\/#\\?]+?))*))?[\\/#\\?]?$|^\\/mcp[\\/#\\?]?$|" +
      "^\\/markets[\\/#\\?]?$|" +
      "^\\/_c[\\/#\\?]?$|^\\/_c(?:\\/((?:[^\\/#\\?]+?)(?:\\/(?:[^\\/#\\?]+?))*))?[\\/#\\?]?$",
    middlewarePath: "middleware",
    continue: true,
    override: true,
  },
  { handle: "filesystem" },
  { src: "^/healthz$", dest: "/api/v1", check: true },
  { src: "^/v1$", dest: "/api/v1", check: true },
  { src: "^/v1(?:/(.*))$", dest: "/api/v1", check: true },
  { src: "^/mcp$", dest: "/api/v1", check: true },
  { src: "^/markets$", dest: "/api/v1", check: true },
  { src: "^/_c(?:/(.*))$", dest: "/api/v1", check: true },
  {
    src: "^/\\.well-known(?:/(oauth-protected-resource|oauth-authorization-server|openid-configuration))$",
    dest: "/api/v1",
    check: true,
  },
  {
    src: "^/\\.well-known(?:/(oauth-protected-resource|oauth-authorization-server|openid-configuration))(?:/(.*))$",
    dest: "/api/v1",
    check: true,
  },
  { src: "^/register$", dest: "/api/v1", check: true },
  { src: "^/api(/.*)?$", status: 404 },
];

function writeText(file, text) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const writeJson = (file, value) => writeText(file, JSON.stringify(value));

/**
 * Copies a tree as the pinned CLI bundles files: each written anew with its source's mode given to
 * open, which the umask narrows (under 077 a 0644 file is bundled 0600), folders made as mkdir makes them.
 */
function bundle(from, to) {
  if (statSync(from).isDirectory()) {
    mkdirSync(to, { recursive: true });
    for (const name of readdirSync(from)) bundle(path.join(from, name), path.join(to, name));
    return;
  }
  mkdirSync(path.dirname(to), { recursive: true });
  writeFileSync(to, readFileSync(from), { mode: statSync(from).mode & 0o777 });
}

/** `vercel pull --environment=X`: the settings are the link's already; the secrets go to .vercel/.env.X.local. */
function pull() {
  const target = args.find((a) => a.startsWith("--environment="))?.slice("--environment=".length) ?? "development";
  const file = path.join(cwd, `.vercel/.env.${target}.local`);
  writeText(file, 'ACCESS_JSON="{}"\nRELEASE_ONLY="1"\n');
  chmodSync(file, 0o644);
  finish(0);
}

/** The project the build is for (.vercel/project.json) and the modes of the pulled environment files. */
function describeProject() {
  const dir = path.join(cwd, ".vercel");
  const link = existsSync(path.join(dir, "project.json"))
    ? JSON.parse(readFileSync(path.join(dir, "project.json"), "utf8"))
    : {};
  const envModes = Object.fromEntries(
    (existsSync(dir) ? readdirSync(dir) : [])
      .filter((name) => name.startsWith(".env."))
      .map((name) => [name, (statSync(path.join(dir, name)).mode & 0o777).toString(8)]),
  );
  return { projectId: link.projectId, nodeVersion: link.settings?.nodeVersion, envModes };
}

/** Node's arguments for each `npm run NAME` step (its script `tsx ENTRY`, ENTRY bundled), or undefined. */
function bundledSteps(command, bundles) {
  const { entries } = JSON.parse(readFileSync(path.join(bundles, "entries.json"), "utf8"));
  const { scripts } = JSON.parse(readFileSync(path.join(cwd, "package.json"), "utf8"));
  const preload = pathToFileURL(path.join(bundles, "bundled-children.mjs")).href;
  const steps = command.split("&&").map((step) => {
    const entry = /^tsx (\S+)$/.exec(scripts[/^npm run (\S+)$/.exec(step.trim())?.[1]] ?? "")?.[1];
    return entries[entry] && ["--import", preload, path.join(bundles, entries[entry])];
  });
  return steps.every(Boolean) ? steps : undefined;
}

/** Runs vercel.json's build command in the shell, as the CLI does (or its steps' bundles); its exit status. */
function runBuildCommand(command) {
  const bundles = process.env.FAKE_VERCEL_BUNDLES;
  const steps = bundles && bundledSteps(command, bundles);
  if (!steps) return spawnSync(command, { cwd, stdio: "inherit", shell: true }).status;
  for (const step of steps) {
    const status = spawnSync(process.execPath, step, { cwd, stdio: "inherit" }).status;
    if (status !== 0) return status;
  }
  return 0;
}

function build() {
  Object.assign(entry, describeProject());
  const { buildCommand } = JSON.parse(readFileSync(path.join(cwd, "vercel.json"), "utf8"));
  const status = runBuildCommand(buildCommand);
  if (status !== 0) {
    process.stderr.write(`Error: Command "${buildCommand}" exited with ${status}\n`);
    finish(1);
  }
  rmSync(output, { recursive: true, force: true });
  const func = path.join(output, "functions/api/v1.func");
  const middleware = path.join(output, "functions/middleware.func");
  writeJson(path.join(output, "config.json"), { version: 3, routes: ROUTES });
  writeJson(path.join(output, "builds.json"), { target: args.includes("--prod") ? "production" : "preview" });
  writeJson(path.join(func, ".vc-config.json"), {
    handler: "api/v1.js",
    runtime: "nodejs24.x",
    launcherType: "Nodejs",
  });
  writeText(path.join(func, "api/v1.js"), "export default () => {};\n");
  writeJson(path.join(middleware, ".vc-config.json"), {
    handler: "middleware.js",
    runtime: "nodejs24.x",
    useWebApi: true,
  });
  writeText(path.join(middleware, "middleware.js"), "export default () => {};\n");
  bundle(path.join(cwd, "snapshot"), path.join(func, "snapshot"));
  // The gateway reads the snapshot's manifest, or a multi-market folder's index (middleware.ts).
  const index = existsSync(path.join(cwd, "snapshot/markets.json")) ? "markets.json" : "manifest.json";
  bundle(path.join(cwd, "snapshot", index), path.join(middleware, "snapshot", index));
  for (const dir of [func, middleware]) bundle(path.join(cwd, "generated"), path.join(dir, "generated"));
  cpSync(path.join(cwd, "public"), path.join(output, "static"), { recursive: true });
  if (process.env.FAKE_VERCEL_OVERSIZE === "1") {
    writeFileSync(path.join(func, "padding.bin"), "");
    truncateSync(path.join(func, "padding.bin"), 251 * 1024 * 1024);
  }
  finish(0);
}

function deploy() {
  if (!existsSync(output)) {
    process.stderr.write('Error: No prebuilt output found in ".vercel/output".\n');
    finish(1);
  }
  const { snapshotId, markets } = uploaded();
  const url = `https://cinema-listings-${snapshotId.slice(0, 9)}.vercel.app`;
  process.stderr.write(`Deploying…\n✅ Ready\n`);
  process.stdout.write(`${url}\n`);
  const target = args.includes("--prod") ? "production" : "preview";
  finish(0, { snapshotId, ...(markets ? { markets } : {}), target });
}

/**
 * The snapshot id the output carries, and with markets each market's as its own function bundles it:
 * the id is then the index's, a digest of each market's id and snapshot id (layout/markets-index.ts).
 */
function uploaded() {
  const readJson = (file) => JSON.parse(readFileSync(path.join(output, "functions", file), "utf8"));
  if (!existsSync(path.join(output, "functions/api/v1.func/snapshot/markets.json")))
    return { snapshotId: readJson("api/v1.func/snapshot/manifest.json").snapshotId };
  const index = readJson("api/v1.func/snapshot/markets.json");
  const markets = Object.fromEntries(
    index.markets.map(({ id }) => [id, readJson(`api/markets/${id}.func/snapshot/${id}/manifest.json`).snapshotId]),
  );
  const lines = Object.entries(markets).map(([id, snapshotId]) => `${id} ${snapshotId}\n`);
  return { snapshotId: createHash("sha256").update(lines.join("")).digest("hex").slice(0, 32), markets };
}

if (command === "pull") pull();
else if (command === "build") build();
else if (command === "deploy") deploy();
else {
  process.stderr.write(`fake vercel: unknown command ${command}\n`);
  finish(2);
}
