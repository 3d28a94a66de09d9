/**
 * Revocation in seconds (decision: revocation in seconds): access data read at run time from Edge
 * Config over the deployment's own. The refresh rules on a fake clock, then the whole path with a
 * local Edge Config stub: `npm run keys -- … --push` writes a change, and the gateway refuses or
 * admits accordingly once MAX_AGE_MS has passed, without a redeploy.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  edgeConfigAccess,
  FRESH_MS,
  MAX_AGE_MS,
  remoteAccess,
  TIMEOUT_MS,
} from "../api/_adapters/edge-config-access.js";
import { createGateway } from "../api/_adapters/gateway.js";
import { AccessIndex } from "../api/_core/gate/access.js";
import type { AccessFile } from "../api/_core/gate/access-file.js";
import { memoryRateLimiter } from "../api/_core/gate/rate-limit.js";
import { hashKey } from "../scripts/keys/commands.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { runKeysCli } from "./helpers/keys-cli.js";
import { startEdgeConfigStub, type EdgeConfigStub } from "./helpers/edge-config-stub.js";

const NOW = new Date("2026-11-23T12:00:00Z");
const KEY = "cl_live_edge_config_test_key_1";

function accessWith(revoked: boolean, status = "active"): AccessFile {
  return {
    organizations: [{ id: "acme", entitlements: [{ plan: "paid", status, validUntil: "2030-01-01T00:00:00Z" }] }],
    keys: [{ id: "k1", organization: "acme", sha256: hashKey(KEY), revoked }],
  };
}

/** Whether the index in force admits KEY. */
async function admits(source: { current(): AccessIndex | Promise<AccessIndex> }): Promise<boolean> {
  return (await source.current()).checkKey(KEY, NOW).ok;
}

describe("access read at run time over the deployment's own", () => {
  function setup(initial: unknown) {
    const clock = { t: 0 };
    const remote = { value: initial as unknown, reads: 0, fail: undefined as Error | undefined };
    const problems: string[] = [];
    const source = remoteAccess(new AccessIndex(accessWith(false)), {
      now: () => clock.t,
      onProblem: (message) => problems.push(message),
      read: async () => {
        remote.reads++;
        if (remote.fail) throw remote.fail;
        return remote.value;
      },
    });
    return { clock, remote, problems, source };
  }

  test("the first request waits for the read: the remote data is in force from the start", async () => {
    const { source, remote } = setup(accessWith(true));
    expect(source.current()).toBeInstanceOf(Promise);
    expect(await admits(source)).toBe(false);
    expect(remote.reads).toBe(1);
  });

  test("no item: the deployment's data", async () => {
    const { source } = setup(undefined);
    expect(await admits(source)).toBe(true);
  });

  test("a change is in force after MAX_AGE_MS at the latest; younger than FRESH_MS nothing is read", async () => {
    const { source, remote, clock } = setup(accessWith(false));
    expect(await admits(source)).toBe(true);
    remote.value = accessWith(true);
    clock.t = FRESH_MS - 1;
    expect(await admits(source)).toBe(true);
    expect(remote.reads).toBe(1);
    clock.t = FRESH_MS + MAX_AGE_MS;
    expect(source.current()).toBeInstanceOf(Promise);
    expect(await admits(source)).toBe(false);
  });

  test("between FRESH_MS and MAX_AGE_MS the data in force answers at once while one read runs", async () => {
    const { source, remote, clock } = setup(accessWith(false));
    await source.current();
    remote.value = accessWith(true);
    clock.t = FRESH_MS;
    const first = source.current();
    const second = source.current();
    expect(first).toBeInstanceOf(AccessIndex);
    expect(second).toBe(first);
    expect(remote.reads).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await admits(source)).toBe(false);
  });

  test("a broken item or a failed read keeps the last good data, reported once per problem", async () => {
    const { source, remote, clock, problems } = setup(accessWith(true));
    expect(await admits(source)).toBe(false);
    remote.value = { organizations: "nope" };
    for (let i = 1; i <= 3; i++) {
      clock.t = i * MAX_AGE_MS;
      expect(await admits(source)).toBe(false);
    }
    remote.fail = new Error("connection refused");
    clock.t = 10 * MAX_AGE_MS;
    expect(await admits(source)).toBe(false);
    expect(problems).toEqual([
      expect.stringMatching(/Edge Config item access is not valid: \$\.organizations must be an array/),
      expect.stringMatching(/connection refused/),
    ]);
    remote.fail = undefined;
    remote.value = accessWith(false);
    clock.t = 20 * MAX_AGE_MS;
    expect(await admits(source)).toBe(true);
    expect(problems.at(-1)).toBe("access: Edge Config readable again");
  });

  test(
    "a first read that never answers holds a request TIMEOUT_MS at most; the deployment's copy then " +
      "answers, unconfirmed",
    async () => {
      const problems: string[] = [];
      const source = remoteAccess(new AccessIndex(accessWith(false)), {
        read: () => new Promise(() => {}),
        onProblem: (message) => problems.push(message),
      });
      // The call returns at all only through the timeout; the gate answers a key it admits 503.
      const index = await source.current();
      expect(index.checkKey(KEY, NOW).ok).toBe(true);
      const reason =
        `access: cannot use Edge Config before any read succeeded (no answer within ${TIMEOUT_MS} ms); ` +
        "a key the deployment's copy admits is answered 503 until one does";
      expect(index.unconfirmed).toBe(reason);
      expect(problems).toEqual([reason]);
    },
  );

  test(
    "a later read that never answers holds a request TIMEOUT_MS at most, then the data in force " + "answers",
    async () => {
      const clock = { t: 0 };
      let answers = true;
      const problems: string[] = [];
      const source = remoteAccess(new AccessIndex(accessWith(false)), {
        now: () => clock.t,
        read: () => (answers ? Promise.resolve({ ...accessWith(true), version: 2 }) : new Promise(() => {})),
        onProblem: (message) => problems.push(message),
      });
      expect(await admits(source)).toBe(false);
      answers = false;
      clock.t = MAX_AGE_MS;
      const index = await source.current();
      expect(index.checkKey(KEY, NOW).ok).toBe(false);
      expect(index.unconfirmed).toBeUndefined();
      expect(problems).toEqual([
        `access: cannot use Edge Config (no answer within ${TIMEOUT_MS} ms); keeping version 2 in force`,
      ]);
    },
  );

  test("an item older than the data in force is reported once, and its end once", async () => {
    const { source, remote, clock, problems } = setup({ ...accessWith(true), version: 4 });
    expect(await admits(source)).toBe(false);
    remote.value = { ...accessWith(false), version: 3 };
    for (let i = 1; i <= 3; i++) {
      clock.t = i * MAX_AGE_MS;
      expect(await admits(source)).toBe(false);
    }
    remote.value = { ...accessWith(false), version: 5 };
    clock.t = 10 * MAX_AGE_MS;
    expect(await admits(source)).toBe(true);
    expect(problems).toEqual([
      "access: Edge Config item access is version 3, older than version 4 in force; keeping version 4",
      "access: Edge Config item access is version 5, in force",
    ]);
  });
});

describe("keys --push to Edge Config, refused or admitted by the gateway without a redeploy", () => {
  let stub: EdgeConfigStub;
  let dir: string;
  let accessFile: string;
  const clock = { t: 0 };
  let gateway: (request: Request) => Response | Promise<Response>;

  const runKeys = (args: string[], env: Record<string, string> = stub.pushEnvironment) =>
    runKeysCli(["--access", accessFile, ...args], env);

  async function statusFor(key: string): Promise<number | "forwarded"> {
    const response = await gateway(
      new Request("https://api.example/v1/films", { headers: { authorization: `Bearer ${key}` } }),
    );
    return response.headers.has("x-middleware-rewrite") ? "forwarded" : response.status;
  }

  beforeAll(async () => {
    stub = await startEdgeConfigStub();
    dir = makeTempDir("edge-config");
    accessFile = path.join(dir, "access.json");
    writeFileSync(accessFile, JSON.stringify(accessWith(false)));
    // The deployment carries the file as it was when it was deployed.
    const deployed = new AccessIndex(accessWith(false));
    gateway = createGateway({
      mode: "rewrite",
      secret: "s",
      snapshotId: () => "0".repeat(32),
      access: edgeConfigAccess(deployed, stub.connectionString, { now: () => clock.t }),
      limiter: memoryRateLimiter(),
      now: () => NOW,
    });
  });
  afterAll(async () => {
    await stub.close();
    removeDir(dir);
  });

  test("before any push: the deployment's data (no item yet)", async () => {
    expect(await statusFor(KEY)).toBe("forwarded");
  });

  test("a revocation pushed by the CLI is refused once MAX_AGE_MS has passed", async () => {
    const revoked = await runKeys(["--push", "revoke", "k1"]);
    expect(revoked).toMatchObject({ code: 0, stdout: "revoked key k1 of organization acme\n" });
    expect(revoked.stderr).toBe(
      `keys: pushed ${accessFile} to Edge Config ecfg_stub1: in force within ${MAX_AGE_MS / 1000} s\n`,
    );
    clock.t += MAX_AGE_MS;
    expect(await statusFor(KEY)).toBe(401);
  });

  test("a new key pushed by the CLI is admitted; an ended entitlement is a 403", async () => {
    const created = await runKeys(["--push", "create", "--org", "acme"]);
    expect(created.code).toBe(0);
    const newKey = created.stdout.trim().split("\n").at(-1)!;
    clock.t += MAX_AGE_MS;
    expect(await statusFor(newKey)).toBe("forwarded");
    const ended = await runKeys([
      "--push",
      "org",
      "set",
      "acme",
      "--plan",
      "paid",
      "--status",
      "cancelled",
      "--until",
      "2030-01-01",
    ]);
    expect(ended.code).toBe(0);
    clock.t += MAX_AGE_MS;
    expect(await statusFor(newKey)).toBe(403);
  });

  test("--push without its settings is a usage error before anything is written", async () => {
    const answer = await runKeys(["--push", "create", "--org", "acme"], {});
    expect(answer).toMatchObject({ code: 2, stdout: "" });
    expect(answer.stderr).toBe(
      "keys: --push needs EDGE_CONFIG (the deployment's connection string) or EDGE_CONFIG_ID\n",
    );
    const noToken = await runKeys(["--push", "list"], { EDGE_CONFIG_ID: "ecfg_x" });
    expect(noToken.stderr).toMatch(/^keys: --push needs VERCEL_API_TOKEN/);
  });

  test("Edge Config unreadable: nothing changed; its write refused: the file written; exit 1 says which", async () => {
    const before = readFileSync(accessFile, "utf8");
    stub.setDown(true);
    try {
      const unread = await runKeys(["--push", "org", "rate-limit", "acme", "--requests", "5", "--window", "60"]);
      expect(unread).toMatchObject({ code: 1, stdout: "" });
      expect(unread.stderr).toBe(
        `keys: ${accessFile} was not changed: ` +
          "cannot read Edge Config's item (Edge Config did not answer the read: HTTP 503 unavailable)\n",
      );
      expect(readFileSync(accessFile, "utf8")).toBe(before);
      stub.setDown(true, "writes");
      const unwritten = await runKeys(["--push", "org", "rate-limit", "acme", "--requests", "5", "--window", "60"]);
      expect(unwritten.code).toBe(1);
      expect(unwritten.stderr).toBe(
        `keys: ${accessFile} was written, but not pushed: ` +
          "Edge Config refused the change: HTTP 503 unavailable; run the push again\n",
      );
    } finally {
      stub.setDown(false);
    }
  });
});
