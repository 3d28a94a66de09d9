/**
 * `npm run serve` as an operator meets it: a wrong --snapshot is said at start in one line (and
 * the server still answers 503, so deploying before data works), a port in use is a clear message
 * rather than the usage line, and HOST chooses the address.
 */
import type { ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { ROOT } from "./helpers/build-helpers.js";
import { endProcess, entryArgs, startProcess } from "./helpers/child-processes.js";
import { KEYS, useHttpFixture } from "./helpers/http-setup.js";

const fixture = useHttpFixture();
const running: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map(endProcess));
});

/** Starts serve (its bundle); resolves once it printed `until` on stdout or exited, with what it wrote. */
function serve(args: string[], env: Record<string, string> = {}, until = /listening on (http:\/\/\S+)/) {
  const child = startProcess(process.execPath, [...entryArgs("scripts/serve.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  const out = { stdout: "", stderr: "", code: null as number | null };
  child.stdout!.on("data", (chunk: Buffer) => (out.stdout += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (out.stderr += chunk));
  return new Promise<typeof out & { url?: string }>((resolve) => {
    const check = () => {
      const match = until.exec(out.stdout);
      if (match) resolve({ ...out, url: match[1] });
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => resolve({ ...out, code }));
  });
}

/** What `read` gives once it matches `pattern`, looked at again on each chunk `child` writes; all of it if it exits. */
function waitFor(child: ChildProcess, read: () => string, pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const check = () => {
      if (!pattern.test(read())) return;
      child.stderr!.off("data", check);
      child.stdout!.off("data", check);
      resolve(read());
    };
    child.stderr!.on("data", check);
    child.stdout!.on("data", check);
    child.once("close", () => resolve(read()));
    check();
  });
}

test("a snapshot folder that does not exist: listening, one line saying so, then 503s", async () => {
  const child = serve(["--snapshot", "no-such-snapshot", "--access", fixture.accessFile, "--port", "0"]);
  const started = await child;
  expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const proc = running.at(-1)!;
  let stderr = "";
  proc.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
  stderr = await waitFor(proc, () => started.stderr + stderr, /cannot be served/);
  expect(stderr).toBe(
    "serve: the snapshot in no-such-snapshot cannot be served (manifest.json: does not exist: build a " +
      "snapshot first (npm run build)); every request answers 503 until it can\n",
  );
  const response = await fetch(`${started.url}/v1/films`, { headers: { authorization: `Bearer ${KEYS.bulk}` } });
  expect(response.status).toBe(503);
});

test("a port in use: exit 2 with one line naming the port, no usage line", async () => {
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const { port } = blocker.address() as AddressInfo;
  try {
    const result = await serve([
      "--snapshot",
      fixture.snapshotDir,
      "--access",
      fixture.accessFile,
      "--port",
      String(port),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `serve: port ${port} on 127.0.0.1 is already in use (another server?): choose another with --port\n`,
    );
  } finally {
    blocker.close();
  }
});

test("HOST sets the address when --host is not given", async () => {
  const started = await serve(["--snapshot", fixture.snapshotDir, "--access", fixture.accessFile, "--port", "0"], {
    HOST: "127.0.0.2",
  });
  expect(started.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
  expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
});
