/**
 * Concurrent `npm run keys` commands (decision: access file changes): real processes started at
 * once, creates and revokes mixed, with and without --push. Every revocation holds, every key a
 * command printed is stored, every write counts one version, and Edge Config ends holding the
 * file as it is at the end, never an older one. A command that cannot have the file's lock in
 * time stops with one line and exit 2, writing nothing; a lock left by a killed command is taken over.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AccessFile } from "../api/_core/gate/access-file.js";
import { lockWaitFromEnvironment } from "../scripts/keys/args.js";
import { lockFileOf } from "../scripts/keys/access-store.js";
import { hashKey } from "../scripts/keys/commands.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { startEdgeConfigStub, type EdgeConfigStub } from "./helpers/edge-config-stub.js";
import { runKeysCli, type CliResult } from "./helpers/keys-cli.js";
import { scaled } from "./helpers/deadlines.js";
import { kill, release, startHolder } from "./helpers/lock-processes.js";

const VICTIMS = 4;
const CREATES = 8;
/** Every command waits its turn, however loaded the machine running the suite: no refusal here. */
const PATIENT = { KEYS_LOCK_WAIT_MS: String(Math.min(600_000, scaled(300_000))) };

function startingAccess(): AccessFile {
  return {
    version: 3,
    organizations: [{ id: "acme", entitlements: [{ plan: "paid", status: "active" }] }],
    keys: Array.from({ length: VICTIMS }, (_, i) => ({
      id: `victim${i}`,
      organization: "acme",
      sha256: hashKey(`cl_live_victim_${i}`),
      revoked: false,
    })),
  };
}

/** Creates and revokes, interleaved, all started before any has finished. */
function mixedCommands(): string[][] {
  const creates = Array.from({ length: CREATES }, () => ["create", "--org", "acme"]);
  const revokes = Array.from({ length: VICTIMS }, (_, i) => ["revoke", `victim${i}`]);
  const mixed: string[][] = [];
  while (creates.length > 0 || revokes.length > 0) {
    if (creates.length > 0) mixed.push(creates.shift()!, ...(creates.length > 0 ? [creates.shift()!] : []));
    if (revokes.length > 0) mixed.push(revokes.shift()!);
  }
  return mixed;
}

/** The keys the create commands printed (their last line). */
function printedKeys(results: CliResult[]): string[] {
  return results
    .map((result) => result.stdout.trimEnd().split("\n").at(-1)!)
    .filter((line) => line.startsWith("cl_live_"));
}

describe("concurrent keys commands lose no change", () => {
  let dir: string;
  let stub: EdgeConfigStub;
  beforeAll(async () => {
    dir = makeTempDir("keys-concurrency");
    stub = await startEdgeConfigStub();
  });
  afterAll(async () => {
    await stub.close();
    removeDir(dir);
  });

  test.each([
    { push: false, reason: "the access file alone" },
    { push: true, reason: "with --push: Edge Config ends with the last file" },
  ])(
    "$reason",
    async ({ push }) => {
      const file = path.join(dir, `access-${push ? "pushed" : "plain"}.json`);
      writeFileSync(file, JSON.stringify(startingAccess(), null, 2));
      const commands = mixedCommands();
      const env = { ...PATIENT, ...(push ? stub.pushEnvironment : {}) };
      const results = await Promise.all(
        commands.map((command) => runKeysCli(["--access", file, ...(push ? ["--push"] : []), ...command], env)),
      );
      expect(results.map((result) => [result.code, result.stderr.includes("keys: pushed") || !push])).toEqual(
        results.map(() => [0, true]),
      );
      const stored = JSON.parse(readFileSync(file, "utf8")) as AccessFile;
      for (let i = 0; i < VICTIMS; i++)
        expect(stored.keys.find((k) => k.id === `victim${i}`)).toMatchObject({ revoked: true });
      const keys = printedKeys(results);
      expect(keys).toHaveLength(CREATES);
      const hashes = new Set(stored.keys.map((k) => k.sha256));
      expect(keys.filter((key) => !hashes.has(hashKey(key)))).toEqual([]);
      expect(stored.keys).toHaveLength(VICTIMS + CREATES);
      // Every write is one version on from the one it read.
      expect(stored.version).toBe(3 + commands.length);
      if (push) expect(stub.items.get("access")).toEqual(stored);
    },
    scaled(240_000),
  );
});

describe("the access file's lock", () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = makeTempDir("keys-lock");
    file = path.join(dir, "access.json");
    writeFileSync(file, JSON.stringify(startingAccess(), null, 2));
  });
  afterAll(() => removeDir(dir));

  const revoke = (env: Record<string, string> = {}) => runKeysCli(["--access", file, "revoke", "victim0"], env);

  test("held by a live command for the whole wait: one line, exit 2, nothing written", async () => {
    const before = readFileSync(file, "utf8");
    const holder = await startHolder(lockFileOf(file));
    try {
      const refused = await revoke({ KEYS_LOCK_WAIT_MS: "200" });
      expect(refused).toMatchObject({ code: 2, stdout: "" });
      expect(refused.stderr).toBe(
        `keys: ${file} was not changed: another keys command (process ${holder.pid}) held its lock for 0.2 s; ` +
          `run the command again once that one has finished (if none is running, remove ${lockFileOf(file)})\n`,
      );
      // A plain list neither writes nor pushes: it does not wait.
      expect((await runKeysCli(["--access", file, "list"], { KEYS_LOCK_WAIT_MS: "0" })).code).toBe(0);
    } finally {
      await release(holder);
    }
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  test("given back while a command waits: the command goes on", async () => {
    const holder = await startHolder(lockFileOf(file));
    // Under tsx, as `npm run keys` runs it (the other commands here run its bundle).
    const waiting = runKeysCli(["--access", file, "create", "--org", "acme"], undefined, "tsx");
    await release(holder);
    expect(await waiting).toMatchObject({ code: 0, stderr: "" });
    expect(existsSync(lockFileOf(file))).toBe(false);
  });

  test("left by a killed command: taken over, the change made, no lock left", async () => {
    await kill(await startHolder(lockFileOf(file)));
    expect(existsSync(lockFileOf(file))).toBe(true);
    const revoked = await revoke({ KEYS_LOCK_WAIT_MS: "0" });
    expect(revoked).toMatchObject({ code: 0, stdout: "revoked key victim0 of organization acme\n", stderr: "" });
    expect(existsSync(lockFileOf(file))).toBe(false);
  });

  test.each([
    { value: "0", expected: 0, reason: "the lower bound: one look" },
    { value: "600000", expected: 600_000, reason: "the upper bound: ten minutes" },
    { value: "", expected: undefined, reason: "empty: the default" },
  ])("KEYS_LOCK_WAIT_MS=$value is accepted ($reason)", ({ value, expected }) => {
    expect(lockWaitFromEnvironment({ KEYS_LOCK_WAIT_MS: value })).toBe(expected);
  });

  test.each([
    { value: "600001", reason: "just past ten minutes" },
    { value: "-1", reason: "negative" },
    { value: "1.5", reason: "not whole" },
    { value: "30s", reason: "a unit" },
  ])("KEYS_LOCK_WAIT_MS=$value is refused ($reason)", async ({ value }) => {
    expect(() => lockWaitFromEnvironment({ KEYS_LOCK_WAIT_MS: value })).toThrow(
      `KEYS_LOCK_WAIT_MS must be a whole number of milliseconds from 0 to 600000, not ${JSON.stringify(value)}`,
    );
  });

  test("a bad KEYS_LOCK_WAIT_MS stops the command before it writes", async () => {
    const before = readFileSync(file, "utf8");
    const refused = await revoke({ KEYS_LOCK_WAIT_MS: "soon" });
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toMatch(/^keys: KEYS_LOCK_WAIT_MS must be a whole number[^\n]+\n$/);
    expect(readFileSync(file, "utf8")).toBe(before);
  });
});
