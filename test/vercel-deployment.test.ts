/**
 * The deployed pair behind the stand-in platform (scripts/vercel/platform.ts), each piece in its
 * own process as Vercel's Node runtime runs it (scripts/vercel/launcher.ts), without the Vercel
 * CLI: api/v1.ts and middleware.ts bundled with esbuild into folders shaped like vercel build's,
 * and the gateway secret written by the project's own `npm run gateway-secret`, copied in with its
 * modes as vercel build copies it. The MCP endpoint through the pair in both forwarding modes
 * (decision: MCP): the SDK's client, its POSTs carried past the CDN with their bodies. Two ways a
 * deployment failed where verify:vercel, run by the files' owner, saw nothing: the platform runs
 * the pieces as another user (decision: gateway secret), and a client names the host fetch mode
 * forwards to (decision: gateway origin).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GATEWAY_SECRET_FILE } from "../api/_adapters/gateway-secret.js";
import { createDiskWriter } from "../build/write/output-writer.js";
import { createOpenApiDocument } from "../build/openapi/openapi.js";
import { createResponseValidator } from "../build/openapi/validate.js";
import { runBuild } from "../build/run-build.js";
import { DEMO_KEYS, type HttpCheckContext, runHttpChecks, send } from "../scripts/vercel/http-checks.js";
import { launchFunction, type LaunchedFunction, type RuntimeUser } from "../scripts/vercel/launcher.js";
import { MCP_CHECKS } from "../scripts/vercel/mcp-checks.js";
import { FIXED_ORIGIN_CHECK } from "../scripts/vercel/origin-check.js";
import { type Platform, startPlatform } from "../scripts/vercel/platform.js";
import { makeTempDir, removeDir, ROOT, setPlainModes } from "./helpers/build-helpers.js";
import { runEntry } from "./helpers/child-processes.js";
import { skippedBecause } from "./helpers/system-tools.js";

const RUNTIME = path.join(ROOT, "scripts/vercel/runtime.mjs");
/** The middleware's route as the platform needs it: its matcher (middleware.ts) and nothing else. */
const ROUTES = [{ src: "^/(v1|_c)(/.*)?$|^/mcp$", middlewarePath: "middleware" }];

/** Another user this process may start processes as, or why there is none. */
function otherUser(): RuntimeUser | string {
  if (process.getuid?.() !== 0) return "this process is not root, so it cannot start one as another user";
  const [uid, gid] = ["-u", "-g"].map((flag) => spawnSync("id", [flag, "nobody"], { encoding: "utf8" }));
  if (uid?.status !== 0 || gid?.status !== 0) return "there is no user nobody";
  const user = { uid: Number(uid.stdout), gid: Number(gid.stdout) };
  const probe = spawnSync(
    process.execPath,
    ["-e", `require("node:fs").accessSync(${JSON.stringify(RUNTIME)}, 4)`],
    user,
  );
  if (probe.status !== 0) return `nobody cannot run ${process.execPath} or read ${RUNTIME}`;
  return user;
}
const OTHER_USER = otherUser();

let root: string;
let funcDir: string;
let middlewareDir: string;
let context: Omit<HttpCheckContext, "baseUrl">;
const closers: Array<() => Promise<void>> = [];
const accessText = () => readFileSync(path.join(ROOT, "data/demo-access.json"), "utf8");

/** One piece's folder: the bundled entry, package.json (ESM) and the .vc-config.json vercel build writes. */
async function bundlePiece(dir: string, entry: string, config: Record<string, unknown>): Promise<void> {
  const handler = config.handler as string;
  await build({
    entryPoints: [path.join(ROOT, entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: path.join(dir, handler),
    logLevel: "warning",
  });
  copyFileSync(path.join(ROOT, "package.json"), path.join(dir, "package.json"));
  writeFileSync(path.join(dir, ".vc-config.json"), JSON.stringify({ runtime: "nodejs20.x", ...config }));
}

beforeAll(async () => {
  root = makeTempDir("vercel-deployment");
  funcDir = path.join(root, "v1.func");
  middlewareDir = path.join(root, "middleware.func");
  await bundlePiece(funcDir, "api/v1.ts", { handler: "api/v1.js", launcherType: "Nodejs", shouldAddHelpers: true });
  await bundlePiece(middlewareDir, "middleware.ts", { handler: "middleware.js", useWebApi: true });
  const built = await runBuild({
    dataDir: path.join(ROOT, "data"),
    output: createDiskWriter(path.join(funcDir, "snapshot")),
  });
  if (!built.ok || "markets" in built) throw new Error("data/ does not build one snapshot");
  mkdirSync(path.join(middlewareDir, "snapshot"));
  copyFileSync(path.join(funcDir, "snapshot/manifest.json"), path.join(middlewareDir, "snapshot/manifest.json"));
  // What this test made stands for what vercel build makes: readable by all, whatever the umask.
  setPlainModes(root);
  // The secret as the build command writes it, copied into both pieces with its modes.
  const project = path.join(root, "project");
  const written = await runEntry("scripts/gateway-secret.ts", ["--root", project], { cwd: ROOT });
  if (written.code !== 0) throw new Error(`npm run gateway-secret failed: ${written.stderr}`);
  for (const dir of [funcDir, middlewareDir])
    cpSync(path.join(project, "generated"), path.join(dir, "generated"), { recursive: true });
  const doc = createOpenApiDocument() as Record<string, any>;
  context = {
    keys: DEMO_KEYS,
    counts: built.manifest.counts,
    validator: createResponseValidator(doc),
    errorSchema: doc.components.schemas.Error,
    accessText: accessText(),
    bundledSecret: readFileSync(path.join(project, GATEWAY_SECRET_FILE), "utf8").trim(),
  };
});

afterAll(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  if (root) removeDir(root);
});

async function launch(dir: string, env: Record<string, string>, user?: RuntimeUser): Promise<LaunchedFunction> {
  const launched = await launchFunction(
    dir,
    { ACCESS_JSON: accessText(), LOG_LEVEL: "silent", ...env },
    undefined,
    user,
  );
  closers.push(launched.close);
  return launched;
}

/** The function, the platform, then the middleware (which may be told the platform's URL). */
async function deploy(options: { mode: "rewrite" | "fetch"; origin?: boolean; user?: RuntimeUser }): Promise<Platform> {
  const fn = await launch(funcDir, {}, options.user);
  let middlewareUrl = "";
  const platform = await startPlatform(ROUTES, () => middlewareUrl, fn.url);
  closers.push(platform.close);
  const env = { GATEWAY_MODE: options.mode, ...(options.origin ? { GATEWAY_ORIGIN: platform.url } : {}) };
  middlewareUrl = (await launch(middlewareDir, env, options.user)).url;
  return platform;
}

describe(
  "as a user who does not own the bundle's files",
  skippedBecause(typeof OTHER_USER === "string" ? `run as another user: ${OTHER_USER}` : undefined),
  () => {
    const user = OTHER_USER as RuntimeUser;

    test("both pieces read the secret the build wrote: an admitted request is served", async () => {
      const platform = await deploy({ mode: "rewrite", user });
      const answer = await send(platform.url, "/v1/films?limit=2", { key: DEMO_KEYS.valid });
      expect(answer.status, answer.body.toString()).toBe(200);
      expect(answer.json().data).toHaveLength(2);

      // The same bundle with a secret only its owner can read: the 503 this user would get.
      const ownerOnly = path.join(root, "owner-only.func");
      cpSync(middlewareDir, ownerOnly, { recursive: true });
      chmodSync(path.join(ownerOnly, GATEWAY_SECRET_FILE), 0o600);
      const gateway = await launch(ownerOnly, { GATEWAY_MODE: "rewrite" }, user);
      const refused = await send(gateway.url, "/v1/films?limit=2", { key: DEMO_KEYS.valid });
      expect([refused.status, refused.json().error.code]).toEqual([503, "database_unavailable"]);
    });
  },
);

describe("fetch mode", () => {
  test(
    "with GATEWAY_ORIGIN: a client naming another host is served from the origin, and that host gets " + "nothing",
    async () => {
      const platform = await deploy({ mode: "fetch", origin: true });
      const [result] = await runHttpChecks({ ...context, baseUrl: platform.url }, [FIXED_ORIGIN_CHECK]);
      expect(result).toMatchObject({ ok: true });
    },
  );

  test("without a fixed origin (no GATEWAY_ORIGIN, no VERCEL_URL): a 503, and nothing forwarded", async () => {
    const platform = await deploy({ mode: "fetch" });
    const answer = await send(platform.url, "/v1/films", { key: DEMO_KEYS.valid });
    expect([answer.status, answer.json().error.code]).toEqual([503, "database_unavailable"]);
    expect(platform.events.map((event) => [event.url, event.cache])).toEqual([["/v1/films", "middleware"]]);
    expect(platform.functionCalls()).toBe(0);
  });
});

describe("a fragment in the target (decision: fragments)", () => {
  test("answers as the target without it, as on the local server; an encoded # stays in the id", async () => {
    const platform = await deploy({ mode: "rewrite" });
    const key = DEMO_KEYS.valid;
    const film = encodeURIComponent((await send(platform.url, "/v1/films?limit=1", { key })).json().data[0].id);
    const cases: Array<[string, string, number]> = [
      ["/v1/films?limit=2#x", "/v1/films?limit=2", 200],
      ["/v1/films#?limit=101", "/v1/films", 200],
      [`/v1/films/${film}#`, `/v1/films/${film}`, 200],
      [`/v1/films/${film}#x`, `/v1/films/${film}`, 200],
      ["/healthz#x", "/healthz", 200],
      ["/v1/films/no%23such#x", "/v1/films/no%23such", 404],
    ];
    const withoutId = (answer: { body: Buffer; headers: Record<string, string | undefined> }) =>
      answer.body.toString().replaceAll(answer.headers["x-request-id"] ?? "<none>", "<id>");
    for (const [target, without, status] of cases) {
      const [answer, expected] = [
        await send(platform.url, target, { key }),
        await send(platform.url, without, { key }),
      ];
      expect([target, answer.status, withoutId(answer)]).toEqual([target, status, withoutId(expected)]);
    }
    const missing = (await send(platform.url, "/v1/films/no%23such", { key })).json();
    expect(missing.error.message).toContain('"no#such"');
  });
});

describe.each(["rewrite", "fetch"] as const)("MCP through the gateway, %s mode", (mode) => {
  test.each(MCP_CHECKS.map(([name]) => [name]))("%s", async (name) => {
    const platform = await deploy({ mode, origin: mode === "fetch" });
    const check = MCP_CHECKS.find(([n]) => n === name)!;
    const [result] = await runHttpChecks({ ...context, baseUrl: platform.url }, [check]);
    expect(result, result!.detail).toMatchObject({ ok: true });
    // Every MCP request went to the function: the CDN never answered a POST.
    expect(platform.events.filter((e) => e.url === "/mcp" && e.cache === "HIT")).toEqual([]);
  });
});
