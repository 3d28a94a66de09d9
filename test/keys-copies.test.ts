/**
 * Two copies of the access file pushing to one Edge Config (decision: access file changes): a push
 * never replaces an item its copy was not derived from, and a pull merges the item into a copy
 * without losing a revocation or an unpushed change. The merge rules on their own, then both copies
 * against the Edge Config stub, in process (the refusal once through the CLI, as an operator sees it).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { AccessFile, KeyRecord, Organization } from "../api/_core/gate/access-file.js";
import { parseKeysArgs } from "../scripts/keys/args.js";
import { hashKey } from "../scripts/keys/commands.js";
import { KeysFailure } from "../scripts/keys/failure.js";
import { mergeAccess } from "../scripts/keys/merge-access.js";
import { runKeys } from "../scripts/keys/run-keys.js";
import { pulledAccess } from "../scripts/keys/sync.js";
import { isSameAccess, syncRecordFileOf } from "../scripts/keys/sync-record.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { startEdgeConfigStub, type EdgeConfigStub } from "./helpers/edge-config-stub.js";
import { runKeysCli } from "./helpers/keys-cli.js";

const key = (id: string, revoked = false, plain = id): KeyRecord => ({
  id,
  organization: "acme",
  sha256: hashKey(plain),
  revoked,
});
const paid = (until: string) => ({ plan: "paid", status: "active", validUntil: `${until}T00:00:00Z` });
const acme = (until = "2027-01-01", rest: Partial<Organization> = {}): Organization => ({
  id: "acme",
  entitlements: [paid(until)],
  ...rest,
});
const file = (version: number, keys: KeyRecord[], organizations = [acme()]): AccessFile => ({
  version,
  organizations,
  keys,
});

describe("the merge of a copy with Edge Config's item", () => {
  const BASE = file(5, [key("k1"), key("k2")]);

  test.each([
    {
      reason: "a key revoked here only stays revoked",
      local: file(6, [key("k1", true), key("k2")]),
      item: BASE,
      keys: [key("k1", true), key("k2")],
    },
    {
      reason: "a key revoked in Edge Config only stays revoked",
      local: BASE,
      item: file(6, [key("k1"), key("k2", true)]),
      keys: [key("k1"), key("k2", true)],
    },
    {
      reason: "revoked on each side, different keys: both stay revoked",
      local: file(6, [key("k1", true), key("k2")]),
      item: file(6, [key("k1"), key("k2", true)]),
      keys: [key("k1", true), key("k2", true)],
    },
    {
      reason: "keys created on either side are all kept, the item's first",
      local: file(6, [key("k1"), key("k2"), key("mine")]),
      item: file(6, [key("k1"), key("k2"), key("theirs")]),
      keys: [key("k1"), key("k2"), key("theirs"), key("mine")],
    },
    {
      reason: "no command removes a key: one missing on a side is kept",
      local: file(5, [key("k1")]),
      item: BASE,
      keys: [key("k1"), key("k2")],
    },
  ])("$reason", ({ local, item, keys }) => {
    expect(mergeAccess(BASE, local, item)).toEqual({ organizations: [acme()], keys, conflicts: [] });
  });

  test("one key id for two different keys: Edge Config's is kept, and said", () => {
    const merged = mergeAccess(BASE, file(6, [...BASE.keys, key("ci", false, "mine")]), {
      ...BASE,
      keys: [...BASE.keys, key("ci", true, "theirs")],
    });
    expect(merged.keys.find((k) => k.id === "ci")).toEqual(key("ci", true, "theirs"));
    expect(merged.conflicts).toEqual([
      "key ci: this copy's is another key than Edge Config's; kept Edge Config's (revoked), " +
        "this copy's is gone: create a new key for its holder",
    ]);
  });

  const limit = (requests: number) => ({ rateLimit: { requests, windowSeconds: 60 } });
  test.each([
    { reason: "changed here only: this copy's", local: acme("2028-01-01"), item: acme(), expected: acme("2028-01-01") },
    {
      reason: "changed in Edge Config only: its",
      local: acme(),
      item: acme("2029-01-01"),
      expected: acme("2029-01-01"),
    },
    {
      reason: "changed alike on both sides",
      local: acme("2028-01-01"),
      item: acme("2028-01-01"),
      expected: acme("2028-01-01"),
    },
    {
      reason: "a plan added on each side: both",
      local: { id: "acme", entitlements: [paid("2027-01-01"), { plan: "trial", status: "active" }] },
      item: { id: "acme", entitlements: [paid("2027-01-01"), { plan: "edu", status: "active" }] },
      expected: {
        id: "acme",
        entitlements: [paid("2027-01-01"), { plan: "edu", status: "active" }, { plan: "trial", status: "active" }],
      },
    },
    {
      reason: "entitlement changed here, rate limit in Edge Config: each side's change",
      local: acme("2028-01-01"),
      item: acme("2027-01-01", limit(100)),
      expected: acme("2028-01-01", limit(100)),
    },
  ])("an organization $reason", ({ local, item, expected }) => {
    const merged = mergeAccess(BASE, file(6, [], [local]), file(6, [], [item]));
    expect(merged).toEqual({ organizations: [expected], keys: [], conflicts: [] });
  });

  test.each([
    {
      reason: "one plan changed differently on both sides",
      base: BASE,
      local: acme("2028-01-01"),
      item: acme("2029-01-01"),
      expected: acme("2029-01-01"),
      conflict:
        "organization acme, plan paid: changed here and in Edge Config; kept Edge Config's " +
        "(set it again with org set if this copy's should stand)",
    },
    {
      reason: "the rate limit changed differently on both sides",
      base: BASE,
      local: acme("2027-01-01", limit(100)),
      item: acme("2027-01-01", limit(200)),
      expected: acme("2027-01-01", limit(200)),
      conflict:
        "organization acme, rate limit: changed here and in Edge Config; kept Edge Config's " +
        "(set it again with org rate-limit if this copy's should stand)",
    },
    {
      reason: "a plan held differently by a copy that never pulled or pushed (no base)",
      base: undefined,
      local: acme("2028-01-01"),
      item: acme(),
      expected: acme(),
      conflict:
        "organization acme, plan paid: changed here and in Edge Config; kept Edge Config's " +
        "(set it again with org set if this copy's should stand)",
    },
  ])("a conflict, $reason: Edge Config's is kept and said", ({ base, local, item, expected, conflict }) => {
    const merged = mergeAccess(base, file(6, [], [local]), file(6, [], [item]));
    expect(merged).toEqual({ organizations: [expected], keys: [], conflicts: [conflict] });
  });
});

describe("the merge of a plan's markets (decision: markets)", () => {
  const BASE = file(5, []);
  const sold = (...markets: string[]): Organization => ({
    id: "acme",
    entitlements: [{ ...paid("2027-01-01"), markets }],
  });

  test.each([
    { reason: "sold here only: this copy's", local: sold("gb"), item: acme(), expected: sold("gb") },
    { reason: "sold in Edge Config only: its", local: acme(), item: sold("gb", "dach"), expected: sold("gb", "dach") },
    {
      reason: "the same markets in another order on each side: no conflict",
      local: sold("gb", "dach"),
      item: sold("dach", "gb"),
      expected: sold("gb", "dach"),
    },
  ])("$reason", ({ local, item, expected }) => {
    expect(mergeAccess(BASE, file(6, [], [local]), file(6, [], [item]))).toEqual({
      organizations: [expected],
      keys: [],
      conflicts: [],
    });
  });

  test.each([
    {
      reason: "other markets on each side",
      base: BASE,
      local: sold("gb", "dach"),
      item: sold("gb"),
      words: "(markets here gb,dach, in Edge Config gb)",
    },
    {
      reason: "back to every market here, narrowed in Edge Config",
      base: file(5, [], [sold("gb", "dach")]),
      local: acme(),
      item: sold("gb"),
      words: "(markets here every market, in Edge Config gb)",
    },
    {
      reason: "markets here, a later end in Edge Config: one plan, one value",
      base: BASE,
      local: sold("gb"),
      item: acme("2028-01-01"),
      words: "(markets here gb, in Edge Config every market)",
    },
    {
      reason: "the same markets, other ends: no markets named in the line",
      base: file(5, [], [sold("gb")]),
      local: { id: "acme", entitlements: [{ ...paid("2028-01-01"), markets: ["gb"] }] },
      item: { id: "acme", entitlements: [{ ...paid("2029-01-01"), markets: ["gb"] }] },
      words: "",
    },
  ])("a conflict, $reason: Edge Config's is kept and said", ({ base, local, item, words }) => {
    const merged = mergeAccess(base, file(6, [], [local]), file(6, [], [item]));
    expect(merged.organizations).toEqual([item]);
    expect(merged.conflicts).toEqual([
      `organization acme, plan paid: changed here and in Edge Config${words ? ` ${words}` : ""}; ` +
        "kept Edge Config's (set it again with org set if this copy's should stand)",
    ]);
  });
});

describe("what a pull makes of a copy", () => {
  const BASE = file(5, [key("k1"), key("k2")]);
  const pull = (local: AccessFile | undefined, item: AccessFile, base: AccessFile | undefined = BASE) =>
    pulledAccess("a.json", "Edge Config ecfg_1", { local, base, item });

  test.each([
    {
      reason: "no file yet: the item",
      local: undefined,
      item: BASE,
      expected: { access: BASE, lines: ["a.json: version 5 from Edge Config ecfg_1"] },
    },
    {
      reason: "the same data: nothing written",
      local: BASE,
      item: BASE,
      expected: { lines: ["a.json is up to date with Edge Config ecfg_1 (version 5)"] },
    },
    {
      reason: "no change here: the item as it is",
      local: BASE,
      item: file(6, [key("k1", true), key("k2")]),
      expected: {
        access: file(6, [key("k1", true), key("k2")]),
        lines: ["a.json: version 6 from Edge Config ecfg_1 (was version 5)"],
      },
    },
    {
      reason: "changes on both sides: merged, one version past both, not pushed",
      local: file(7, [key("k1"), key("k2"), key("mine")]),
      item: file(6, [key("k1", true), key("k2")]),
      expected: {
        access: file(8, [key("k1", true), key("k2"), key("mine")]),
        lines: [
          "a.json: version 7 here merged with version 6 from Edge Config ecfg_1 into version 8, not pushed yet; " +
            "check it with list, then push it with: npm run keys -- --access a.json --push list",
        ],
      },
    },
    {
      reason: "changes here only: nothing written, and a push is what is left",
      local: file(6, [key("k1"), key("k2", true)]),
      item: BASE,
      expected: {
        lines: [
          "a.json (version 6) holds all of Edge Config ecfg_1's version 5; " +
            "check it with list, then push it with: npm run keys -- --access a.json --push list",
        ],
      },
    },
  ])("$reason", ({ local, item, expected }) => {
    expect(pull(local, item)).toEqual(expected);
  });

  test("members in another order are the same data; another version is not", () => {
    const reordered = JSON.parse(JSON.stringify({ keys: BASE.keys, organizations: BASE.organizations, version: 5 }));
    expect(isSameAccess(reordered, BASE)).toBe(true);
    expect(isSameAccess({ ...BASE, version: 6 }, BASE)).toBe(false);
  });
});

describe("two copies of the access file against one Edge Config", () => {
  let stub: EdgeConfigStub;
  let dir: string;
  let a: string;
  let b: string;

  /** Runs one keys command in process, as `npm run keys -- --access FILE …` would. */
  async function keys(accessFile: string, ...args: string[]) {
    const invocation = parseKeysArgs(["--access", accessFile, ...args]);
    if (invocation === "help") throw new Error("unexpected help");
    const output = { stdout: "", stderr: "", status: 0 };
    const context = {
      env: stub.pushEnvironment,
      now: () => new Date("2026-06-15T12:00:00Z"),
      stdout: (text: string) => void (output.stdout += text),
      stderr: (text: string) => void (output.stderr += text),
    };
    try {
      await runKeys(invocation, context);
    } catch (error) {
      if (!(error instanceof KeysFailure)) throw error;
      output.status = error.status;
      output.stderr += `${error.message}\n`;
    }
    return output;
  }
  const item = () => stub.items.get("access") as AccessFile;
  const read = (accessFile: string) => JSON.parse(readFileSync(accessFile, "utf8")) as AccessFile;
  const createdKey = (output: { stdout: string }) => hashKey(output.stdout.trimEnd().split("\n").at(-1)!);

  beforeAll(async () => {
    stub = await startEdgeConfigStub();
    dir = makeTempDir("keys-copies");
  });
  afterAll(async () => {
    await stub.close();
    removeDir(dir);
  });
  beforeEach(async (context) => {
    stub.items.clear();
    a = path.join(dir, `${context.task.id}-a.json`);
    b = path.join(dir, `${context.task.id}-b.json`);
    writeFileSync(a, JSON.stringify(file(5, [key("victim"), key("other")]), null, 2));
    // Both copies at version 5, in step with Edge Config: A pushed it, B pulled it.
    expect((await keys(a, "--push", "list")).stderr).toMatch(/in force within 5 s\n$/);
    expect((await keys(b, "pull")).stdout).toMatch(/version 5 from Edge Config ecfg_stub1\n$/);
  });

  test("A revokes and pushes; B's push is refused with nothing changed; B pulls, creates, pushes: both", async () => {
    expect((await keys(a, "--push", "revoke", "victim")).status).toBe(0);
    const pushedByA = item();
    const before = readFileSync(b, "utf8");

    const refused = await runKeysCli(["--access", b, "--push", "create", "--org", "acme"], stub.pushEnvironment);
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toBe(
      `keys: ${b} was not changed: Edge Config ecfg_stub1 holds version 6, pushed from another copy of the ` +
        "access file since this one last pulled or pushed version 5, and a push would undo its changes; " +
        `bring this copy up to date with: npm run keys -- --access ${b} pull ` +
        "(a key revoked on either side stays revoked), then run this command again\n",
    );
    expect(item()).toEqual(pushedByA);
    expect(readFileSync(b, "utf8")).toBe(before);

    expect((await keys(b, "pull")).stdout).toBe(`${b}: version 6 from Edge Config ecfg_stub1 (was version 5)\n`);
    const created = await keys(b, "--push", "create", "--org", "acme");
    expect(created.status).toBe(0);
    expect(created.stderr).toBe(`keys: pushed ${b} to Edge Config ecfg_stub1: in force within 5 s\n`);
    expect(item().version).toBe(7);
    expect(item().keys.find((k) => k.id === "victim")?.revoked).toBe(true);
    expect(item().keys.some((k) => k.sha256 === createdKey(created))).toBe(true);
    expect(item()).toEqual(read(b));
  });

  test("B's unpushed change survives a pull of A's revocation, and goes out with the next push", async () => {
    const created = await keys(b, "create", "--org", "acme");
    expect((await keys(a, "--push", "revoke", "victim")).status).toBe(0);
    expect((await keys(b, "--push", "list")).status).toBe(1);

    const pulled = await keys(b, "pull");
    expect(pulled.stdout).toMatch(/version 6 here merged with version 6 from Edge Config ecfg_stub1 into version 7/);
    expect(item().version).toBe(6);
    const pushed = await keys(b, "--push", "list");
    expect(pushed.stderr).toBe(`keys: pushed ${b} to Edge Config ecfg_stub1: in force within 5 s\n`);
    expect(item().version).toBe(7);
    expect(item().keys.find((k) => k.id === "victim")?.revoked).toBe(true);
    expect(item().keys.some((k) => k.sha256 === createdKey(created))).toBe(true);

    // A is now the stale copy: refused the same way, and brought up to date the same way.
    expect((await keys(a, "--push", "revoke", "other")).status).toBe(1);
    expect((await keys(a, "pull")).status).toBe(0);
    expect((await keys(a, "--push", "revoke", "other")).status).toBe(0);
    expect(
      item()
        .keys.filter((k) => k.revoked)
        .map((k) => k.id),
    ).toEqual(["victim", "other"]);
  });

  test("a revocation made here while another copy pushed is kept by the pull", async () => {
    expect((await keys(b, "revoke", "other")).status).toBe(0);
    expect((await keys(a, "--push", "create", "--org", "acme")).status).toBe(0);
    await keys(b, "pull");
    expect(read(b).keys.find((k) => k.id === "other")?.revoked).toBe(true);
    expect((await keys(b, "--push", "list")).status).toBe(0);
    expect(item().keys.find((k) => k.id === "other")?.revoked).toBe(true);
  });

  test("a copy that never pulled or pushed is refused while its data differs from the item", async () => {
    const c = path.join(dir, "never-synced.json");
    writeFileSync(c, JSON.stringify(file(5, [key("victim"), key("other")]), null, 2));
    expect((await keys(a, "--push", "revoke", "victim")).status).toBe(0);
    const refused = await keys(c, "--push", "list");
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("holds version 6, which this copy has never pulled or pushed, and a push would");
    expect(existsSync(syncRecordFileOf(c))).toBe(false);
  });

  test("an item equal to this copy is not pushed again, and no push is said to be in force", async () => {
    writeFileSync(b, readFileSync(a, "utf8"));
    writeFileSync(syncRecordFileOf(b), "{}\n");
    const again = await keys(b, "--push", "list");
    expect(again.status).toBe(0);
    expect(again.stderr).toBe(`keys: Edge Config ecfg_stub1 already holds ${b} (version 5): nothing to push\n`);
  });

  test("a copy older than the item it was derived from is not pushed: instances would keep the item", async () => {
    // An old backup put back over B after it pulled version 5: a change makes it version 4.
    writeFileSync(b, JSON.stringify(file(3, [key("victim"), key("other")]), null, 2));
    const refused = await keys(b, "--push", "revoke", "victim");
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      `${b} was written, but not pushed: its version 4 is not newer than version 5 in Edge Config ecfg_stub1, ` +
        `which instances keep over it; run npm run keys -- --access ${b} pull, then push\n`,
    );
    expect(item().version).toBe(5);
  });

  test("Edge Config broken: nothing changed; its writes refused: the file written, not pushed", async () => {
    stub.setDown(true, "writes");
    try {
      const refused = await keys(b, "--push", "revoke", "victim");
      expect(refused.stderr).toBe(
        `${b} was written, but not pushed: Edge Config refused the change: HTTP 503 unavailable; run the push again\n`,
      );
      expect(refused.stdout).toBe("revoked key victim of organization acme\n");
    } finally {
      stub.setDown(false);
    }
    // Still derived from the item: the same push goes through now.
    expect((await keys(b, "--push", "list")).stderr).toMatch(/in force within 5 s\n$/);

    stub.items.set("access", { version: 9, organizations: "nope" });
    const broken = await keys(b, "--push", "revoke", "other");
    expect(broken).toMatchObject({ status: 1, stdout: "" });
    expect(broken.stderr).toMatch(/^\S+ was not changed: cannot read Edge Config's item \(Edge Config's item access /);
    expect(broken.stderr).toMatch(/correct or replace it in Vercel's dashboard\)\n$/);
  });

  test("pull without Edge Config's settings is refused before anything is read", async () => {
    const invocation = parseKeysArgs(["--access", b, "pull"]);
    if (invocation === "help") throw new Error("unexpected help");
    const context = { env: {}, now: () => new Date(), stdout: () => {}, stderr: () => {} };
    await expect(runKeys(invocation, context)).rejects.toThrow(
      "pull needs EDGE_CONFIG (the deployment's connection string) or EDGE_CONFIG_ID",
    );
  });

  test("a pull with no item changes nothing; a broken record is refused with what to do", async () => {
    stub.items.clear();
    const before = readFileSync(b, "utf8");
    expect((await keys(b, "pull")).stdout).toBe(
      `Edge Config ecfg_stub1 holds no access data yet: nothing to pull; ${b} is unchanged\n`,
    );
    expect(readFileSync(b, "utf8")).toBe(before);
    writeFileSync(syncRecordFileOf(b), "[");
    await expect(keys(b, "--push", "list")).rejects.toThrow(
      `${syncRecordFileOf(b)} is not a record of pushed access data`,
    );
  });
});
