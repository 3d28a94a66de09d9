/**
 * The typed client as a package (decision: the typed client as a package): `npm pack ./client`
 * builds it into a tarball that installs, with no registry, into a project outside the
 * repository; there the client guide's example (docs/client.md) runs with tsx against the demo
 * server (its showtimes,
 * exit code 0; on a closed port the error at once and exit code 1), plain node imports the
 * package, and TypeScript finds the package's own declarations.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { writeCurrentDemo } from "../scripts/demo/demo-folder.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { runProcess } from "./helpers/child-processes.js";

const DEMO_KEY = "cl_demo_3f9a1c7e5b2d4086a1e7c9b3";
/** The day the demo is made current for, and the example's clock (it asks for today's showtimes). */
const TODAY = "2027-07-14";
const PACKAGE = "@cinema-listings/client";

let root: string;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  root = makeTempDir("client-package");
  const data = path.join(root, "data");
  mkdirSync(data);
  writeCurrentDemo(path.join(ROOT, "data"), data, TODAY);
  const built = await runBuild({
    dataDir: data,
    output: createDiskWriter(path.join(root, "snapshot")),
    gzipWorkers: 0,
  });
  if (!built.ok) throw new Error("the current demo does not build");
  ({ server, url: baseUrl } = await startServer({
    snapshotDir: path.join(root, "snapshot"),
    accessFile: path.join(ROOT, "data/demo-access.json"),
    port: 0,
    now: () => new Date(`${TODAY}T12:00:00Z`),
    onError: () => {},
  }));
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  removeDir(root);
});

/** A command's exit code (-1 when a signal ended it) and output; the command is ended if its test fails. */
async function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const childEnv = { ...process.env, npm_config_cache: path.join(root, "npm-cache"), ...env };
  const { code, stdout, stderr } = await runProcess(command, args, { cwd, env: childEnv });
  return { code: code ?? -1, stdout, stderr };
}

/** A port nothing listens on: taken from the system, then given back. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The client guide's example (docs/client.md), as a reader saves it, pointed at `url`. */
function readmeExample(url: string): string {
  const readme = readFileSync(path.join(ROOT, "docs/client.md"), "utf8");
  const example = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((code) => code.includes("try {"));
  if (!example) throw new Error("docs/client.md has no client example with a try block");
  return example.replaceAll("http://localhost:3000", url);
}

/** The example's clock: `new Date()` and Date.now() say TODAY at noon UTC. */
const FIXED_CLOCK = `const at = Date.parse("${TODAY}T12:00:00Z");
const RealDate = Date;
globalThis.Date = class extends RealDate {
  constructor(...args) { super(...(args.length ? args : [at])); }
  static now() { return at; }
};
`;

/** Where TypeScript finds the package's types for an app's module in `dir` (type-checking them is the build's job). */
function typesOf(dir: string): string | undefined {
  const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
  const from = path.join(dir, "listings.ts");
  return ts.resolveModuleName(PACKAGE, from, options, ts.sys).resolvedModule?.resolvedFileName;
}

test("packed, installed outside the repository: the guide's example runs in tsx, plain node imports it", async () => {
  const packed = await run("npm", ["pack", "./client", "--pack-destination", root], ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const tarball = readdirSync(root).find((name) => name.endsWith(".tgz"))!;
  expect(readFileSync(path.join(ROOT, "docs/client.md"), "utf8"), "the guide names the tarball").toContain(tarball);

  const app = path.join(root, "app");
  mkdirSync(app);
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  const installed = await run("npm", ["install", "--offline", "--no-audit", "--no-fund", `../${tarball}`], app);
  expect(installed.code, installed.stderr).toBe(0);
  const manifest = JSON.parse(readFileSync(path.join(app, "node_modules", PACKAGE, "package.json"), "utf8"));
  expect([manifest.dependencies, manifest.type]).toEqual([undefined, "module"]);

  writeFileSync(path.join(app, "fixed-clock.mjs"), FIXED_CLOCK);
  writeFileSync(path.join(app, "listings.ts"), readmeExample(baseUrl));
  writeFileSync(path.join(app, "closed.ts"), readmeExample(`http://127.0.0.1:${await freePort()}`));
  expect(typesOf(app)).toBe(path.join(app, "node_modules", PACKAGE, "dist/index.d.ts"));

  const tsx = path.join(ROOT, "node_modules/.bin/tsx");
  const env = { API_KEY: DEMO_KEY };
  const answered = await run(tsx, ["--import", "./fixed-clock.mjs", "listings.ts"], app, env);
  expect([answered.code, answered.stderr]).toEqual([0, ""]);
  const lines = answered.stdout.trim().split("\n");
  expect(lines.length, "tonight's showtimes near Manchester").toBeGreaterThan(0);
  for (const line of lines) expect(line).toMatch(new RegExp(`^${TODAY}T(1[7-9]|2[0-3]):\\d\\d`));

  const refused = await run(tsx, ["--import", "./fixed-clock.mjs", "closed.ts"], app, env);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    /^0 network_error GET http:\/\/127\.0\.0\.1:\d+\/v1\/showtimes: no answer \(connect ECONNREFUSED/,
  );

  writeFileSync(
    path.join(app, "plain.mjs"),
    `import { createClient } from "${PACKAGE}";\n` +
      `const page = await createClient({ baseUrl: "${baseUrl}", apiKey: "${DEMO_KEY}" }).listFilms({ limit: 2 });\n` +
      "console.log(JSON.stringify(page.data.map((film) => film.id)));\n",
  );
  const plain = await run(process.execPath, ["plain.mjs"], app);
  expect(plain.code, plain.stderr).toBe(0);
  const direct = await fetch(`${baseUrl}/v1/films?limit=2`, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
  const { data } = (await direct.json()) as { data: { id: string }[] };
  expect(JSON.parse(plain.stdout)).toEqual(data.map((film) => film.id));
});
