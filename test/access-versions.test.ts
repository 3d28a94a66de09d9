/**
 * Access data never goes backwards (decision: revocation in seconds). With EDGE_CONFIG set, the
 * data in force is the newest version among the deployment's copy and every item read; a warm
 * instance keeps the newest it has seen whatever a later read says; a cold one whose first read
 * fails or is late answers a key the deployment's copy admits 503 (a key it refuses is still a
 * 401). Each row at the gateway and at the function alike, both configured from the environment
 * as on Vercel, against a local Edge Config stub; then the review's case end to end, with
 * `npm run keys -- --push revoke`.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { deployedGateway } from "../api/_adapters/deployed-gateway.js";
import { FRESH_MS, MAX_AGE_MS, TIMEOUT_MS } from "../api/_adapters/edge-config-access.js";
import { GATEWAY_SECRET_FILE } from "../api/_adapters/gateway-secret.js";
import { deployedHandle } from "../api/_adapters/vercel.js";
import type { AccessFile, KeyRecord } from "../api/_core/gate/access-file.js";
import { hashKey } from "../scripts/keys/commands.js";
import { makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { startEdgeConfigStub, type EdgeConfigStub } from "./helpers/edge-config-stub.js";
import { useHttpFixture } from "./helpers/http-setup.js";
import { runKeysCli } from "./helpers/keys-cli.js";

const fixture = useHttpFixture({ seed: 11, showtimes: 10 });

/** Revoked in version 6. */
const KEPT = "cl_live_versions_kept_until_v6";
/** Created in version 5, the deployment's copy. */
const OF_V5 = "cl_live_versions_created_in_v5";
/** Created in version 6. */
const OF_V6 = "cl_live_versions_created_in_v6";
const NEVER_ISSUED = "cl_live_versions_never_issued";

const key = (id: string, plain: string, revoked = false): KeyRecord => ({
  id,
  organization: "acme",
  sha256: hashKey(plain),
  revoked,
});

function accessAt(version: number): AccessFile {
  const keys = [key("kept", KEPT, version >= 6)];
  if (version >= 5) keys.push(key("of-v5", OF_V5));
  if (version >= 6) keys.push(key("of-v6", OF_V6));
  return { version, organizations: [{ id: "acme", entitlements: [{ plan: "paid", status: "active" }] }], keys };
}
const DEPLOYED = accessAt(5);

/** What a key gets: admitted (forwarded by the gateway, served by the function), or the refusal. */
type Outcome = "admitted" | "401 unauthorized" | "503 database_unavailable";
type Ask = (plainKey: string) => Promise<Outcome | string>;

/** A refusal as "status code"; a 503 must say when to retry. */
function refusalOf(status: number, headers: Record<string, string | null>, body: string): string {
  if (status === 503) expect(headers["retry-after"]).toBe("5");
  return `${status} ${JSON.parse(body).error.code}`;
}

let stub: EdgeConfigStub;
let bundle: string;
const clock = { t: 0 };

function environment(deployed: AccessFile): NodeJS.ProcessEnv {
  return {
    ACCESS_JSON: JSON.stringify(deployed),
    EDGE_CONFIG: stub.connectionString,
    SNAPSHOT_DIR: fixture.snapshotDir,
    LOG_LEVEL: "silent",
  };
}

/** A new instance (cold: it has read nothing yet) of one deployed piece. */
const PIECES: Array<[string, (deployed: AccessFile) => Ask]> = [
  [
    "the gateway",
    (deployed) => {
      const gateway = deployedGateway(
        environment(deployed),
        {
          manifest: pathToFileURL(path.join(fixture.snapshotDir, "manifest.json")),
          secret: pathToFileURL(path.join(bundle, GATEWAY_SECRET_FILE)),
        },
        { clock: () => clock.t },
      );
      return async (plainKey) => {
        const request = new Request("https://api.example/v1/films?limit=1", {
          headers: { authorization: `Bearer ${plainKey}` },
        });
        const answer = await gateway(request);
        if (answer.headers.has("x-middleware-rewrite")) return "admitted";
        return refusalOf(answer.status, Object.fromEntries(answer.headers), await answer.text());
      };
    },
  ],
  [
    "the function",
    (deployed) => {
      const fn = deployedHandle(environment(deployed), {
        secretFile: path.join(bundle, GATEWAY_SECRET_FILE),
        clock: () => clock.t,
      });
      return async (plainKey) => {
        const headers = { authorization: `Bearer ${plainKey}` };
        const answer = await fn({ method: "GET", url: "/v1/films?limit=1", headers });
        if (answer.status === 200) return "admitted";
        return refusalOf(answer.status, answer.headers, answer.body.toString());
      };
    },
  ],
];

/** What Edge Config holds or does, by the rows' names. */
const STATES: Record<string, () => void> = {
  "a newer item": () => stub.items.set("access", accessAt(6)),
  "no item": () => stub.items.delete("access"),
  "an item older than the deployment's copy": () => stub.items.set("access", accessAt(3)),
  "a broken item": () => stub.items.set("access", { version: 9, organizations: "nope" }),
  "a first read later than the deadline": () => {
    stub.items.set("access", accessAt(6));
    stub.setReadDelay(TIMEOUT_MS + 2_000);
  },
  "an outage": () => stub.setDown(true),
};

beforeAll(async () => {
  stub = await startEdgeConfigStub();
  bundle = makeTempDir("access-versions");
  mkdirSync(path.join(bundle, path.dirname(GATEWAY_SECRET_FILE)), { recursive: true });
  writeFileSync(path.join(bundle, GATEWAY_SECRET_FILE), `${"7c".repeat(32)}\n`);
});
afterAll(async () => {
  await stub.close();
  removeDir(bundle);
});
afterEach(() => {
  stub.items.clear();
  stub.setDown(false);
  stub.setReadDelay(0);
});

async function outcomes(ask: Ask, keys: string[]): Promise<Array<Outcome | string>> {
  const answers: Array<Outcome | string> = [];
  for (const plainKey of keys) answers.push(await ask(plainKey));
  return answers;
}

const ASKED = [KEPT, OF_V5, OF_V6, NEVER_ISSUED];

describe.each(PIECES)("%s", (_piece, start) => {
  // The keys: revoked in v6, created in v5, created in v6, never issued. The deployment carries v5.
  test.each<[string, Outcome[]]>([
    ["a newer item", ["401 unauthorized", "admitted", "admitted", "401 unauthorized"]],
    ["no item", ["admitted", "admitted", "401 unauthorized", "401 unauthorized"]],
    ["an item older than the deployment's copy", ["admitted", "admitted", "401 unauthorized", "401 unauthorized"]],
    ["a broken item", ["503 database_unavailable", "503 database_unavailable", "401 unauthorized", "401 unauthorized"]],
    [
      "a first read later than the deadline",
      ["503 database_unavailable", "503 database_unavailable", "401 unauthorized", "401 unauthorized"],
    ],
    ["an outage", ["503 database_unavailable", "503 database_unavailable", "401 unauthorized", "401 unauthorized"]],
  ])("a cold instance, %s", async (state, expected) => {
    STATES[state]!();
    expect(await outcomes(start(DEPLOYED), ASKED)).toEqual(expected);
  });

  test.each(Object.keys(STATES).filter((state) => state !== "a newer item"))(
    "a warm instance that has seen version 6 keeps it: %s",
    async (state) => {
      STATES["a newer item"]!();
      const ask = start(DEPLOYED);
      expect(await outcomes(ask, ASKED)).toEqual(["401 unauthorized", "admitted", "admitted", "401 unauthorized"]);
      STATES[state]!();
      clock.t += MAX_AGE_MS;
      expect(await outcomes(ask, ASKED)).toEqual(["401 unauthorized", "admitted", "admitted", "401 unauthorized"]);
    },
  );

  test("a cold instance that could not read admits once a read succeeds", async () => {
    STATES["an outage"]!();
    const ask = start(DEPLOYED);
    expect(await ask(OF_V5)).toBe("503 database_unavailable");
    stub.setDown(false);
    STATES["a newer item"]!();
    clock.t += FRESH_MS;
    expect(await outcomes(ask, ASKED)).toEqual(["401 unauthorized", "admitted", "admitted", "401 unauthorized"]);
  });

  test("a deployment carrying a newer copy than the item: the deployment's copy is in force", async () => {
    STATES["a newer item"]!();
    expect(await outcomes(start(accessAt(7)), [KEPT])).toEqual(["401 unauthorized"]);
    stub.items.set("access", accessAt(5));
    expect(await outcomes(start(accessAt(6)), [KEPT, OF_V6])).toEqual(["401 unauthorized", "admitted"]);
  });

  test(
    "an item of the same version as the deployment's copy is in force (files written before versions " + "were)",
    async () => {
      const unversioned = ({ version, ...rest }: AccessFile) => rest;
      stub.items.set("access", unversioned(accessAt(6)));
      expect(await outcomes(start(unversioned(accessAt(5))), [KEPT, OF_V6])).toEqual(["401 unauthorized", "admitted"]);
    },
  );
});

describe("a revocation pushed by npm run keys stays in force (the review's case)", () => {
  let dir: string;
  let accessFile: string;
  beforeAll(() => {
    dir = makeTempDir("access-versions-e2e");
    accessFile = path.join(dir, "access.json");
    writeFileSync(accessFile, JSON.stringify(DEPLOYED, null, 2));
  });
  afterAll(() => removeDir(dir));

  test("warm instances: 401 after a slow, a missing or an older read; a cold one never admits the key", async () => {
    const instances = PIECES.map(([, start]) => start(DEPLOYED));
    for (const ask of instances) expect(await ask(KEPT)).toBe("admitted");
    const revoked = await runKeysCli(["--access", accessFile, "--push", "revoke", "kept"], stub.pushEnvironment);
    expect(revoked).toMatchObject({ code: 0, stdout: "revoked key kept of organization acme\n" });
    const pushed = JSON.parse(readFileSync(accessFile, "utf8")) as AccessFile;
    expect(pushed.version).toBe(6);
    expect(stub.items.get("access")).toEqual(pushed);
    clock.t += MAX_AGE_MS;
    for (const ask of instances) expect(await ask(KEPT)).toBe("401 unauthorized");

    const reads: Array<[string, () => void]> = [
      ["slow", () => stub.setReadDelay(TIMEOUT_MS + 2_000)],
      ["missing", () => stub.items.delete("access")],
      ["older", () => stub.items.set("access", DEPLOYED)],
    ];
    for (const [, make] of reads) {
      make();
      clock.t += MAX_AGE_MS;
      expect(await Promise.all(instances.map((ask) => ask(KEPT)))).toEqual(["401 unauthorized", "401 unauthorized"]);
      stub.setReadDelay(0);
      stub.items.set("access", pushed);
    }

    stub.setReadDelay(TIMEOUT_MS + 2_000);
    const cold = PIECES.map(([, start]) => start(DEPLOYED));
    expect(await Promise.all(cold.map((ask) => ask(KEPT)))).toEqual(cold.map(() => "503 database_unavailable"));
  });
});
