/**
 * The gateway's secret (decision: gateway secret): random, written by the build, bundled with the
 * middleware and the function, GATEWAY_SECRET as an override; never derivable from the access
 * data, the snapshot or the repository; without a usable one the internal path stays closed.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { deployedGateway } from "../api/_adapters/deployed-gateway.js";
import { createGateway } from "../api/_adapters/gateway.js";
import {
  GATEWAY_SECRET_FILE,
  GENERATED_SECRET,
  MIN_SECRET_LENGTH,
  resolveGatewaySecret,
} from "../api/_adapters/gateway-secret.js";
import { deployedHandle } from "../api/_adapters/vercel.js";
import { staticAccess } from "../api/_core/gate/access.js";
import { SnapshotSource } from "../api/_core/format/read/snapshot-source.js";
import { GATEWAY_TOKEN_HEADER } from "../api/_core/gate/internal-path.js";
import { memoryRateLimiter } from "../api/_core/gate/rate-limit.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { auth, KEYS, TEST_NOW, useHttpFixture } from "./helpers/http-setup.js";

const fixture = useHttpFixture();
const OVERRIDE = "an-operator-chosen-secret-of-40-characters";
let dir: string;
let accessText: string;
let snapshotId: string;
/** A bundle's root with the build's secret in it, and one without. */
let bundled: { root: string; secret: string };
let bare: string;

/** What the secret once was: computable by anyone holding the access text. */
const derivedFrom = (text: string) =>
  createHash("sha256").update(`cinema-listings gateway\n${text}`, "utf8").digest("hex");

beforeAll(() => {
  dir = makeTempDir("gateway-secret");
  accessText = readFileSync(fixture.accessFile, "utf8");
  snapshotId = new SnapshotSource(fixture.snapshotDir).current().manifest.snapshotId;
  bundled = { root: path.join(dir, "bundled"), secret: "5e".repeat(32) };
  mkdirSync(path.join(bundled.root, "generated"), { recursive: true });
  writeFileSync(path.join(bundled.root, GATEWAY_SECRET_FILE), `${bundled.secret}\n`);
  bare = path.join(dir, "bare");
  mkdirSync(bare);
});
afterAll(() => removeDir(dir));

interface Configuration {
  env: () => NodeJS.ProcessEnv;
  /** The bundle root the pieces read the build's secret from. */
  root: () => string;
  /** The secret the gateway shows, or undefined when the internal path is closed. */
  secret: () => string | undefined;
}

const CONFIGURATIONS: Array<[string, Configuration]> = [
  [
    "ACCESS_JSON and the build's secret",
    { env: () => ({ ACCESS_JSON: accessText }), root: () => bundled.root, secret: () => bundled.secret },
  ],
  [
    "ACCESS_FILE and the build's secret",
    { env: () => ({ ACCESS_FILE: fixture.accessFile }), root: () => bundled.root, secret: () => bundled.secret },
  ],
  [
    "GATEWAY_SECRET over the build's secret",
    {
      env: () => ({ ACCESS_JSON: accessText, GATEWAY_SECRET: OVERRIDE }),
      root: () => bundled.root,
      secret: () => OVERRIDE,
    },
  ],
  [
    "GATEWAY_SECRET without the build's secret",
    { env: () => ({ ACCESS_JSON: accessText, GATEWAY_SECRET: OVERRIDE }), root: () => bare, secret: () => OVERRIDE },
  ],
  ["no secret at all", { env: () => ({ ACCESS_JSON: accessText }), root: () => bare, secret: () => undefined }],
  [
    "a GATEWAY_SECRET too short",
    {
      env: () => ({ ACCESS_JSON: accessText, GATEWAY_SECRET: "x".repeat(MIN_SECRET_LENGTH - 1) }),
      root: () => bundled.root,
      secret: () => undefined,
    },
  ],
];

function pieces(configuration: Configuration) {
  const env = { ...configuration.env(), SNAPSHOT_DIR: fixture.snapshotDir, LOG_LEVEL: "silent" };
  const root = configuration.root();
  const fn = deployedHandle(env, { secretFile: path.join(root, GATEWAY_SECRET_FILE) });
  const gateway = deployedGateway(env, {
    manifest: pathToFileURL(path.join(fixture.snapshotDir, "manifest.json")),
    secret: pathToFileURL(path.join(root, GATEWAY_SECRET_FILE)),
  });
  return { fn, gateway };
}

describe.each(CONFIGURATIONS)("%s", (_name, configuration) => {
  const internal = () => `/_c/${snapshotId}/gzip/v1/films`;

  test("the secret derived from the access data opens nothing: a 404 at the function and at the gateway", async () => {
    const { fn, gateway } = pieces(configuration);
    const header = { [GATEWAY_TOKEN_HEADER]: derivedFrom(accessText) };
    // The internal path as it is, and as it was when that secret was in force.
    for (const url of [internal(), `/_c/${snapshotId}/v1/films`]) {
      const answer = await fn({ method: "GET", url, headers: header });
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body.toString()).error.code).toBe("not_found");
      const viaGateway = await gateway(new Request(`https://api.example${url}`, { headers: header }));
      expect(viaGateway.status).toBe(404);
      expect(viaGateway.headers.has("x-middleware-next")).toBe(false);
    }
  });

  test("the secret in force opens the internal path; without one it stays closed", async () => {
    const { fn, gateway } = pieces(configuration);
    const secret = configuration.secret();
    const shown = secret ?? bundled.secret;
    const answer = await fn({ method: "GET", url: internal(), headers: { [GATEWAY_TOKEN_HEADER]: shown } });
    expect(answer.status).toBe(secret ? 200 : 404);
    const admitted = await gateway(new Request("https://api.example/v1/films", { headers: auth(KEYS.valid) }));
    if (secret) {
      expect(admitted.headers.get("x-middleware-rewrite")).toContain(`/_c/${snapshotId}/`);
      expect(admitted.headers.get(`x-middleware-request-${GATEWAY_TOKEN_HEADER}`)).toBe(secret);
    } else {
      expect(admitted.status).toBe(503);
      expect(admitted.headers.has("x-middleware-rewrite")).toBe(false);
    }
  });
});

describe("resolveGatewaySecret", () => {
  test.each<[string, () => NodeJS.ProcessEnv, () => string, string | RegExp]>([
    ["the build's secret", () => ({}), () => bundled.root, "5e".repeat(32)],
    [
      "GATEWAY_SECRET of exactly the minimum length",
      () => ({ GATEWAY_SECRET: "s".repeat(32) }),
      () => bare,
      "s".repeat(32),
    ],
    ["GATEWAY_SECRET one short", () => ({ GATEWAY_SECRET: "s".repeat(31) }), () => bundled.root, /31 characters/],
    ["no file, no GATEWAY_SECRET", () => ({}), () => bare, /generated\/gateway-secret is not in the deployment/],
    ["an empty GATEWAY_SECRET counts as unset", () => ({ GATEWAY_SECRET: "" }), () => bundled.root, "5e".repeat(32)],
  ])("%s", (_what, env, root, expected) => {
    const resolved = resolveGatewaySecret(env(), path.join(root(), GATEWAY_SECRET_FILE));
    if (typeof expected === "string") expect(resolved).toEqual({ secret: expected });
    else {
      expect(resolved.secret).toBeUndefined();
      expect(resolved.problem).toMatch(expected);
      // Every problem names the fix.
      expect(resolved.problem).toMatch(/npm run gateway-secret.*GATEWAY_SECRET/);
    }
  });

  test.each([
    ["not hex", "z".repeat(64)],
    ["too short", "ab".repeat(31)],
    ["empty", ""],
  ])("a bundled file %s is refused", (_what, content) => {
    const file = path.join(dir, `broken-${content.length}-${content[0] ?? "e"}`);
    writeFileSync(file, content);
    expect(resolveGatewaySecret({}, file).problem).toMatch(/does not hold 64 hex digits/);
  });
});

test("a gateway without a secret answers an admitted request 503 and logs why, with the fix", async () => {
  const errors: Array<[string, unknown]> = [];
  const gateway = createGateway({
    mode: "rewrite",
    secret: undefined,
    secretProblem: "no gateway secret: because; fix it",
    snapshotId: () => snapshotId,
    access: staticAccess(accessText),
    limiter: memoryRateLimiter(),
    now: () => TEST_NOW,
    onError: (requestId, error) => errors.push([requestId, error]),
  });
  const response = await gateway(new Request("https://api.example/v1/films", { headers: auth(KEYS.valid) }));
  const body = (await response.json()) as { error: { code: string; requestId: string } };
  expect(response.status).toBe(503);
  expect(body.error.code).toBe("database_unavailable");
  expect(errors).toHaveLength(1);
  expect(errors[0]![0]).toBe(body.error.requestId);
  expect((errors[0]![1] as Error).message).toBe("no gateway secret: because; fix it");
});

describe("npm run gateway-secret", () => {
  /** The script under `umask` (the build machine's), which must not decide who can read the secret. */
  const run = (root: string, umask = "022") =>
    spawnSync(
      "sh",
      ["-c", `umask ${umask} && exec "$0" --import tsx scripts/gateway-secret.ts --root "$1"`, process.execPath, root],
      {
        cwd: ROOT,
        encoding: "utf8",
      },
    );

  test("writes a new random secret each time and never prints it", () => {
    const root = path.join(dir, "project");
    const first = run(root);
    const file = path.join(root, GATEWAY_SECRET_FILE);
    const firstSecret = readFileSync(file, "utf8").trim();
    const second = run(root);
    const secondSecret = readFileSync(file, "utf8").trim();
    expect([first.status, second.status]).toEqual([0, 0]);
    expect(firstSecret).toMatch(GENERATED_SECRET);
    expect(secondSecret).toMatch(GENERATED_SECRET);
    expect(secondSecret).not.toBe(firstSecret);
    expect(first.stdout + first.stderr).not.toContain(firstSecret);
  });

  // The platform may run the bundle as a user other than the files' owner (decision: gateway
  // secret): the file is 0644 and its folder 0755 whatever the umask, and a folder an earlier
  // build left owner-only is opened up.
  test.each<[string, string, number | undefined]>([
    ["the usual umask", "022", undefined],
    ["an owner-only umask", "077", undefined],
    ["a folder left owner-only", "022", 0o700],
    ["a folder left owner-only, under an owner-only umask", "077", 0o700],
  ])("%s: the secret is readable by any user, its folder traversable", (_what, umask, folderBefore) => {
    const root = path.join(dir, `modes-${umask}-${folderBefore ?? "none"}`);
    if (folderBefore !== undefined) mkdirSync(path.join(root, "generated"), { recursive: true, mode: folderBefore });
    const result = run(root, umask);
    expect(result.status, result.stderr).toBe(0);
    expect(statSync(path.join(root, GATEWAY_SECRET_FILE)).mode & 0o777).toBe(0o644);
    expect(statSync(path.join(root, "generated")).mode & 0o777).toBe(0o755);
  });

  test("its file is never committed and never uploaded as source", () => {
    const ignored = spawnSync("git", ["check-ignore", "-q", GATEWAY_SECRET_FILE], { cwd: ROOT });
    expect(ignored.status).toBe(0);
    expect(readFileSync(path.join(ROOT, ".vercelignore"), "utf8").split("\n")).toContain("/generated/");
  });

  test("vercel.json's build command writes it and bundles it with the function", () => {
    const config = JSON.parse(readFileSync(path.join(ROOT, "vercel.json"), "utf8"));
    expect(config.buildCommand).toMatch(/&& npm run gateway-secret$/);
    expect(config.functions["api/v1.ts"].includeFiles).toContain(GATEWAY_SECRET_FILE);
  });
});
