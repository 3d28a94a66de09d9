import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { accessVersionOf, parseAccessFile, type AccessFile } from "../api/_core/gate/access-file.js";
import { startServer } from "../scripts/server/local-server.js";
import { parseKeysArgs, UsageError } from "../scripts/keys/args.js";
import { readAccess, writeAccess } from "../scripts/keys/access-store.js";
import { applyCommand, CommandError, hashKey, KEY_PREFIX } from "../scripts/keys/commands.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { runKeysCli } from "./helpers/keys-cli.js";
import { buildDataset, generateDataset } from "./helpers/dataset.js";
import { scaled } from "./helpers/deadlines.js";

const NOW = new Date("2026-06-15T12:00:00Z");
const runCli = (args: string[]) => runKeysCli(args);

function sampleAccess(): AccessFile {
  return {
    organizations: [
      { id: "acme", entitlements: [{ plan: "paid", status: "active", validUntil: "2027-01-01T00:00:00Z" }] },
    ],
    keys: [{ id: "k1", organization: "acme", sha256: "a".repeat(64), revoked: false }],
  };
}

const orgSet = ["org", "set", "acme", "--plan", "paid", "--status", "active", "--until", "2027-01-01"];

describe("keys arguments", () => {
  test.each([
    {
      args: ["--demo", "list"],
      expected: { accessFile: "data/demo-access.json", command: { name: "list" } },
      reason: "the demo file when asked for by name",
    },
    {
      args: ["--access", "x.json", "create", "--org", "acme"],
      expected: { accessFile: "x.json", command: { name: "create", org: "acme" } },
      reason: "--access before the command",
    },
    {
      args: ["--access", "x.json", "create", "--org", "acme", "--expires", "2027-01-01"],
      expected: { command: { expiresAt: "2027-01-01T00:00:00Z" } },
      reason: "a date means midnight UTC",
    },
    {
      args: ["--access", "x.json", "create", "--org", "acme", "--expires", "2027-01-01T10:00:00+02:00"],
      expected: { command: { expiresAt: "2027-01-01T10:00:00+02:00" } },
      reason: "a date-time is kept as written",
    },
    {
      args: ["--access", "x.json", "create", "--org", "acme", "--id", "acme-ci"],
      expected: { command: { keyId: "acme-ci" } },
      reason: "a chosen key id",
    },
    {
      args: ["--access", "x.json", "revoke", "k1"],
      expected: { command: { name: "revoke", keyId: "k1" } },
      reason: "the key id is positional",
    },
    {
      args: [
        "--access",
        "x.json",
        "org",
        "set",
        "acme",
        "--plan",
        "paid",
        "--status",
        "active",
        "--until",
        "2027-01-01",
      ],
      expected: { command: { name: "org-set", org: "acme", validUntil: "2027-01-01T00:00:00Z" } },
      reason: "--from is optional",
    },
    {
      args: ["--access", "x.json", ...orgSet, "--markets", "gb,dach"],
      expected: { command: { name: "org-set", markets: ["gb", "dach"] } },
      reason: "markets in the order given",
    },
    {
      args: ["--access", "x.json", ...orgSet, "--markets", "all"],
      expected: { command: { name: "org-set", markets: "all" } },
      reason: "every market",
    },
    {
      args: ["--access", "x.json", ...orgSet, "--markets", `de,${"x".repeat(32)}`],
      expected: { command: { markets: ["de", "x".repeat(32)] } },
      reason: "ids of 2 and 32 characters",
    },
    {
      args: ["--access", "x.json", "org", "rate-limit", "acme", "--requests", "1", "--window", "31536000"],
      expected: { command: { requests: 1, windowSeconds: 31_536_000 } },
      reason: "both bounds",
    },
    {
      args: ["--access", "x.json", "pull"],
      expected: { accessFile: "x.json", command: { name: "pull" }, push: false },
      reason: "pull takes nothing but the file",
    },
  ])("accepts $args ($reason)", ({ args, expected }) => {
    expect(parseKeysArgs(args)).toMatchObject(expected);
  });

  test("without --markets, org set's command names none: the plan keeps its markets", () => {
    const invocation = parseKeysArgs(["--access", "x.json", ...orgSet]);
    expect(invocation !== "help" && "markets" in invocation.command).toBe(false);
  });

  test.each([
    { args: [], message: "a command is required", reason: "nothing to do" },
    { args: ["rotate"], message: 'unknown command "rotate"', reason: "not a command" },
    { args: ["org", "delete", "acme"], message: "org needs a sub-command", reason: "not an org sub-command" },
    { args: ["create"], message: "create needs --org", reason: "a key belongs to an organization" },
    {
      args: ["create", "--org", "a b"],
      message: "--org must be 1 to 100 letters",
      reason: "spaces break logs and Redis keys",
    },
    {
      args: ["create", "--org", "acme", "--expires", "2027-02-29"],
      message: "2027 is not a leap year",
      reason: "calendar-checked",
    },
    {
      args: ["create", "--org", "acme", "--expires", "tomorrow"],
      message: "--expires must be YYYY-MM-DD",
      reason: "not a date",
    },
    {
      args: ["create", "--org", "acme", "--plan", "paid"],
      message: "create does not take --plan",
      reason: "options of other commands are refused",
    },
    { args: ["revoke"], message: "revoke needs KEY_ID", reason: "which key?" },
    { args: ["list", "extra"], message: 'list takes no argument "extra"', reason: "stray argument" },
    { args: ["--access", "x.json", "pull", "ecfg_1"], message: 'pull takes no argument "ecfg_1"', reason: "stray" },
    {
      args: ["--access", "x.json", "pull", "--org", "acme"],
      message: "pull does not take --org",
      reason: "whole file",
    },
    {
      args: ["--access", "x.json", "--push", "pull"],
      message: "pull does not take --push",
      reason: "a merge is looked at before it goes out",
    },
    {
      args: ["org", "set", "acme", "--plan", "paid", "--status", "active"],
      message: "org set needs --until",
      reason: "an entitlement must end",
    },
    {
      args: ["org", "set", "acme", "--plan", "Paid", "--status", "active", "--until", "2027-01-01"],
      message: "--plan must be a lowercase word",
      reason: "'Paid' would never grant access",
    },
    {
      args: [...orgSet, "--markets", "GB"],
      message: '--markets takes market ids separated by commas (2..32 lowercase letters, digits or "-"), or all; "GB"',
      reason: "uppercase is no market id",
    },
    { args: [...orgSet, "--markets", "g"], message: '"g" is not one', reason: "1 character, one short" },
    {
      args: [...orgSet, "--markets", "x".repeat(33)],
      message: `"${"x".repeat(33)}" is not one`,
      reason: "33 characters, one past",
    },
    { args: [...orgSet, "--markets", "gb,,dach"], message: '"" is not one', reason: "an empty id between commas" },
    { args: [...orgSet, "--markets", "gb, dach"], message: '" dach" is not one', reason: "a space" },
    { args: [...orgSet, "--markets", "gb,gb"], message: '--markets names "gb" twice', reason: "a repeat" },
    {
      args: [...orgSet, "--markets", "gb,all"],
      message: "--markets all means every market; name no market beside it",
      reason: "all and a market",
    },
    {
      args: [...orgSet, "--markets", "mcp"],
      message: `--markets: "mcp" can be no market's id (the server answers /mcp itself)`,
      reason: "reserved",
    },
    {
      args: [...orgSet, "--markets", Array.from({ length: 101 }, (_, i) => `m${i}`).join(",")],
      message: "--markets names 101 markets; a deployment has at most 100",
      reason: "one past the most markets",
    },
    { args: ["create", "--org", "acme", "--markets", "gb"], message: "create does not take --markets", reason: "keys" },
    {
      args: ["org", "rate-limit", "acme", "--requests", "0", "--window", "60"],
      message: "--requests must be a whole number from 1",
      reason: "just below the bound",
    },
    {
      args: ["org", "rate-limit", "acme", "--requests", "10", "--window", "31536001"],
      message: "--window must be a whole number from 1 to 31536000",
      reason: "just past a year",
    },
    { args: ["--access", "", "list"], message: "--access must not be empty", reason: "an empty path" },
    { args: ["list", "--frobnicate"], message: "Unknown option '--frobnicate'", reason: "typos are refused" },
    {
      args: ["list"],
      message: "--access FILE is required",
      reason: "the committed demo file is never the silent default",
    },
    { args: ["create", "--org", "acme"], message: "--access FILE is required", reason: "nor for a change" },
    {
      args: ["--access", "x.json", "--demo", "list"],
      message: "give --access FILE or --demo, not both",
      reason: "which file?",
    },
  ])("refuses $args ($reason)", ({ args, message }) => {
    expect(() => parseKeysArgs(args)).toThrow(UsageError);
    expect(() => parseKeysArgs(args)).toThrow(message);
    expect(() => parseKeysArgs(args)).not.toThrow(/\n/);
  });
});

describe("keys commands", () => {
  const apply = (access: AccessFile | undefined, args: string[]) => {
    const invocation = parseKeysArgs(["--access", "access.json", ...args]);
    if (invocation === "help" || invocation.command.name === "pull") throw new Error("not a file command");
    return applyCommand(access, invocation.command, NOW, "access.json");
  };

  test("create stores only the SHA-256 of a prefixed 256-bit key, and prints the key last", () => {
    const result = apply(sampleAccess(), ["create", "--org", "acme", "--expires", "2027-01-01"]);
    const key = result.lines.at(-1)!;
    expect(key).toMatch(new RegExp(`^${KEY_PREFIX}[A-Za-z0-9_-]{43}$`));
    const record = result.access!.keys.at(-1)!;
    expect(record).toMatchObject({
      organization: "acme",
      sha256: createHash("sha256").update(key).digest("hex"),
      revoked: false,
      expiresAt: "2027-01-01T00:00:00Z",
    });
    expect(JSON.stringify(result.access)).not.toContain(key);
    expect(result.lines.slice(0, -1).join("\n")).not.toContain(key);
  });

  test("two keys are never the same", () => {
    const first = apply(sampleAccess(), ["create", "--org", "acme"]);
    const second = apply(first.access, ["create", "--org", "acme"]);
    expect(second.lines.at(-1)).not.toBe(first.lines.at(-1));
    expect(new Set(second.access!.keys.map((k) => k.id)).size).toBe(3);
  });

  test.each([
    {
      args: ["create", "--org", "ghost"],
      message: 'organization "ghost" does not exist',
      reason: "keys need an organization",
    },
    {
      args: ["create", "--org", "acme", "--id", "k1"],
      message: "a key with id k1 already exists",
      reason: "key ids are unique",
    },
    {
      args: ["create", "--org", "acme", "--expires", "2026-06-15T12:00:00Z"],
      message: "is not in the future",
      reason: "a key expiring now would never work",
    },
    { args: ["revoke", "nope"], message: 'no key has the id "nope"', reason: "unknown key" },
    {
      args: ["org", "rate-limit", "ghost", "--requests", "5", "--window", "60"],
      message: 'organization "ghost" does not exist',
      reason: "only org set creates organizations",
    },
    {
      args: [
        "org",
        "set",
        "acme",
        "--plan",
        "paid",
        "--status",
        "active",
        "--from",
        "2027-01-01",
        "--until",
        "2027-01-01",
      ],
      message: "must be before --until",
      reason: "an empty entitlement",
    },
  ])("refuses: $reason", ({ args, message }) => {
    expect(() => apply(sampleAccess(), args)).toThrow(CommandError);
    expect(() => apply(sampleAccess(), args)).toThrow(message);
  });

  test("revoke marks the key and keeps it listed; revoking again changes nothing", () => {
    const result = apply(sampleAccess(), ["revoke", "k1"]);
    expect(result.access!.keys[0]!.revoked).toBe(true);
    expect(apply(result.access, ["revoke", "k1"])).toEqual({ lines: ["key k1 was already revoked"] });
  });

  test("org set replaces the entitlement of the same plan and creates missing organizations", () => {
    const updated = apply(sampleAccess(), [
      "org",
      "set",
      "acme",
      "--plan",
      "paid",
      "--status",
      "cancelled",
      "--until",
      "2026-07-01",
    ]);
    expect(updated.access!.organizations[0]!.entitlements).toEqual([
      { plan: "paid", status: "cancelled", validUntil: "2026-07-01T00:00:00Z" },
    ]);
    expect(updated.lines).toContain("note: only plan paid with status active grants access to the API");
    const created = apply(undefined, [
      "org",
      "set",
      "new-co",
      "--plan",
      "paid",
      "--status",
      "active",
      "--from",
      "2026-01-01",
      "--until",
      "2027-01-01",
    ]);
    expect(created.access).toEqual({
      version: 1,
      organizations: [
        {
          id: "new-co",
          entitlements: [
            { plan: "paid", status: "active", validFrom: "2026-01-01T00:00:00Z", validUntil: "2027-01-01T00:00:00Z" },
          ],
        },
      ],
      keys: [],
    });
  });

  test("org set --markets sells markets; without it the plan keeps them; all sells every market again", () => {
    const planOf = (access: AccessFile | undefined, plan = "paid") =>
      access!.organizations[0]!.entitlements.find((e) => e.plan === plan);
    const sold = apply(sampleAccess(), [...orgSet, "--markets", "gb,dach"]);
    expect(planOf(sold.access)).toEqual({ ...planOf(sampleAccess()), markets: ["gb", "dach"] });
    expect(sold.lines[0]).toBe("updated organization acme: paid active until 2027-01-01T00:00:00Z, markets gb,dach");
    const renewed = apply(sold.access, [
      "org",
      "set",
      "acme",
      "--plan",
      "paid",
      "--status",
      "active",
      "--until",
      "2028-01-01",
    ]);
    expect(planOf(renewed.access)).toMatchObject({ validUntil: "2028-01-01T00:00:00Z", markets: ["gb", "dach"] });
    expect(renewed.lines[0]).toContain("until 2028-01-01T00:00:00Z, markets gb,dach");
    const trial = apply(renewed.access, [...orgSet.slice(0, 4), "trial", ...orgSet.slice(5)]);
    expect(planOf(trial.access, "trial")).not.toHaveProperty("markets");
    const every = apply(trial.access, [...orgSet, "--markets", "all"]);
    expect(planOf(every.access)).not.toHaveProperty("markets");
    expect(every.lines[0]).toBe("updated organization acme: paid active until 2027-01-01T00:00:00Z, every market");
  });

  test("org set without --markets on today's file writes it as before markets, byte for byte", () => {
    const before = apply(sampleAccess(), [...orgSet]);
    expect(JSON.stringify(before.access)).toBe(JSON.stringify({ version: 1, ...sampleAccess() }));
  });

  test("list shows each plan's markets and which markets the organization may use now", () => {
    const access = sampleAccess();
    access.organizations.push(
      { id: "gb-co", entitlements: [{ plan: "paid", status: "active", markets: ["gb", "dach"] }] },
      { id: "lapsed", entitlements: [{ plan: "paid", status: "cancelled", markets: ["gb"] }] },
    );
    const lines = apply(access, ["list"]).lines.join("\n");
    expect(lines).toMatch(/acme\s+entitled\s+600\/60s \(default\)\s+paid active … → 2027-01-01T00:00:00Z\n/);
    expect(lines).toMatch(/gb-co\s+entitled: gb,dach\s+600\/60s \(default\)\s+paid active … → … markets gb,dach\n/);
    expect(lines).toMatch(/lapsed\s+not entitled\s+600\/60s \(default\)\s+paid cancelled … → … markets gb\n/);
  });

  test("org rate-limit sets the policy", () => {
    const result = apply(sampleAccess(), ["org", "rate-limit", "acme", "--requests", "100", "--window", "60"]);
    expect(result.access!.organizations[0]!.rateLimit).toEqual({ requests: 100, windowSeconds: 60 });
  });

  test("list shows ids, states and a hash prefix, never a whole hash", () => {
    const lines = apply(sampleAccess(), ["list"]).lines.join("\n");
    expect(lines).toMatch(/k1\s+acme\s+aaaaaaaa…\s+active\s+never/);
    expect(lines).not.toContain("a".repeat(9));
  });

  test("list shows the file's version, 0 for a file without one", () => {
    expect(apply(sampleAccess(), ["list"]).lines[0]).toBe("version 0");
    expect(apply({ ...sampleAccess(), version: 41 }, ["list"]).lines[0]).toBe("version 41");
  });

  test.each([
    { args: ["create", "--org", "acme"], reason: "a new key" },
    { args: ["revoke", "k1"], reason: "a revocation" },
    {
      args: ["org", "set", "acme", "--plan", "paid", "--status", "active", "--until", "2028-01-01"],
      reason: "an entitlement",
    },
    { args: ["org", "rate-limit", "acme", "--requests", "5", "--window", "60"], reason: "a rate limit" },
  ])("every change is one version on: $reason (decision: revocation in seconds)", ({ args }) => {
    expect(apply(sampleAccess(), args).access!.version).toBe(1);
    expect(apply({ ...sampleAccess(), version: 7 }, args).access!.version).toBe(8);
  });

  test("a new file starts at version 1; what changes nothing writes nothing", () => {
    const created = apply(undefined, [
      "org",
      "set",
      "a",
      "--plan",
      "paid",
      "--status",
      "active",
      "--until",
      "2028-01-01",
    ]);
    expect(created.access!.version).toBe(1);
    const revoked = apply({ ...sampleAccess(), version: 3 }, ["revoke", "k1"]).access!;
    expect(apply(revoked, ["revoke", "k1"]).access).toBeUndefined();
    expect(apply(revoked, ["list"]).access).toBeUndefined();
  });

  test("a file at the last version a change can follow is refused, not written past it", () => {
    const last = { ...sampleAccess(), version: Number.MAX_SAFE_INTEGER - 1 };
    expect(apply(last, ["revoke", "k1"]).access!.version).toBe(Number.MAX_SAFE_INTEGER);
    const full = { ...sampleAccess(), version: Number.MAX_SAFE_INTEGER };
    expect(() => apply(full, ["revoke", "k1"])).toThrow(CommandError);
    expect(() => apply(full, ["revoke", "k1"])).toThrow(`is at version ${Number.MAX_SAFE_INTEGER}, the last`);
  });
});

describe("the access file's version", () => {
  const withVersion = (version: unknown) => JSON.stringify({ ...sampleAccess(), version });

  test.each([
    { version: 0, reason: "the lowest" },
    { version: 1, reason: "one change" },
    { version: Number.MAX_SAFE_INTEGER, reason: "the highest whole number JSON numbers hold exactly" },
  ])("version $version is accepted ($reason)", ({ version }) => {
    expect(accessVersionOf(parseAccessFile(withVersion(version)))).toBe(version);
  });

  test("a file without one is version 0: today's files keep loading", () => {
    expect(accessVersionOf(parseAccessFile(JSON.stringify(sampleAccess())))).toBe(0);
  });

  test.each([
    { version: -1, reason: "just below the lowest" },
    { version: Number.MAX_SAFE_INTEGER + 1, reason: "just past the highest" },
    { version: 1.5, reason: "not whole" },
    { version: "3", reason: "a string" },
    { version: null, reason: "null" },
  ])("version $version is refused ($reason)", ({ version }) => {
    expect(() => parseAccessFile(withVersion(version))).toThrow("$.version must be a whole number of at least 0");
  });
});

describe("writing the access file", () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir("keys-write");
  });
  afterAll(() => removeDir(dir));

  test("the written file passes the server's parser, keeps its permissions and leaves no temporary file", () => {
    const file = path.join(dir, "access.json");
    writeFileSync(file, JSON.stringify(sampleAccess()));
    chmodSync(file, 0o640);
    writeAccess(file, { ...sampleAccess(), keys: [] });
    expect(parseAccessFile(readFileSync(file, "utf8"))).toEqual({ ...sampleAccess(), keys: [] });
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(["access.json"]);
  });

  test("an access file the server would refuse is never written", () => {
    const file = path.join(dir, "refused.json");
    writeFileSync(file, JSON.stringify(sampleAccess()));
    const broken = { ...sampleAccess(), keys: [...sampleAccess().keys, ...sampleAccess().keys] };
    expect(() => writeAccess(file, broken)).toThrow('key id "k1" appears more than once');
    expect(readAccess(file)).toEqual(sampleAccess());
  });

  test("a failed rename leaves no temporary file behind", () => {
    const target = path.join(dir, "occupied");
    mkdirSync(path.join(target, "child"), { recursive: true });
    expect(() => writeAccess(target, sampleAccess())).toThrow(/^cannot write/);
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});

describe("the keys CLI against a running server", () => {
  let root: string;
  let accessFile: string;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    root = makeTempDir("keys-server");
    accessFile = path.join(root, "access.json");
    writeFileSync(accessFile, JSON.stringify({ organizations: [], keys: [] }));
    await buildDataset(generateDataset({ seed: 5, showtimes: 10 }), root, path.join(root, "snapshot"));
    ({ server, url } = await startServer({
      snapshotDir: path.join(root, "snapshot"),
      accessFile,
      port: 0,
      onError: () => {},
    }));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    removeDir(root);
  });

  const status = async (key: string) =>
    (await fetch(`${url}/v1/films`, { headers: { authorization: `Bearer ${key}` } })).status;

  /** The server re-reads the file within a fraction of a second; poll rather than sleep a fixed time. */
  async function waitForStatus(key: string, expected: number): Promise<number> {
    const deadline = Date.now() + scaled(10_000);
    let seen = await status(key);
    while (seen !== expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await status(key);
    }
    return seen;
  }

  /** A paid, active entitlement for acme: what a first key needs. */
  const ORG_SET = ["org", "set", "acme", "--plan", "paid", "--status", "active", "--until", "2099-01-01"];

  test("a created key works, and once revoked gets 401 without a restart", async () => {
    const org = await runCli(["--access", accessFile, ...ORG_SET]);
    expect(org).toMatchObject({ code: 0, stderr: "" });
    const created = await runCli(["--access", accessFile, "create", "--org", "acme", "--id", "acme-1"]);
    expect(created.code).toBe(0);
    const key = created.stdout.trimEnd().split("\n").at(-1)!;
    expect(created.stdout.split(key)).toHaveLength(2);
    expect(readFileSync(accessFile, "utf8")).toContain(hashKey(key));
    expect(readFileSync(accessFile, "utf8")).not.toContain(key);
    expect(await waitForStatus(key, 200)).toBe(200);

    const listed = await runCli(["--access", accessFile, "list"]);
    expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).not.toContain(hashKey(key));

    expect((await runCli(["--access", accessFile, "revoke", "acme-1"])).code).toBe(0);
    expect(await waitForStatus(key, 401)).toBe(401);
  });

  test("a plan sold for some markets still admits its keys where the deployment has no markets", async () => {
    const sold = await runCli(["--access", accessFile, ...ORG_SET, "--markets", "gb,dach"]);
    expect(sold).toMatchObject({ code: 0, stderr: "" });
    expect(sold.stdout).toContain("until 2099-01-01T00:00:00Z, markets gb,dach\n");
    expect(readAccess(accessFile)!.organizations[0]!.entitlements[0]!.markets).toEqual(["gb", "dach"]);
    const created = await runCli(["--access", accessFile, "create", "--org", "acme"]);
    // This server's /v1 is a single-market deployment, which any paid entitlement admits (decision: markets).
    expect(await waitForStatus(created.stdout.trimEnd().split("\n").at(-1)!, 200)).toBe(200);
  });

  test("an access file in a folder that does not exist yet: the folder is made, owner-only", async () => {
    const nested = path.join(path.dirname(accessFile), "ops-new", "deeper", "access.json");
    const result = await runCli(["--access", nested, ...ORG_SET]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(readFileSync(nested, "utf8")).organizations[0].id).toBe("acme");
    expect(statSync(path.dirname(nested)).mode & 0o777).toBe(0o700);
  });

  test("bad input is one line on stderr and exit 2, and leaves the file alone", async () => {
    const before = readFileSync(accessFile, "utf8");
    for (const args of [
      ["create", "--org", "ghost"],
      ["org", "rate-limit", "acme", "--requests", "x", "--window", "60"],
      [...ORG_SET, "--markets", "GB"],
    ]) {
      const result = await runCli(["--access", accessFile, ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^keys: [^\n]+\n$/);
      expect(result.stdout).toBe("");
    }
    expect(readFileSync(accessFile, "utf8")).toBe(before);
  });
});
