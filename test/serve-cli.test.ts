/**
 * `npm run serve` as an operator meets it: a wrong --snapshot is said at start in one line (and
 * the server still answers 503, so deploying before data works), a port in use is a clear message
 * rather than the usage line, and HOST chooses the address.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, expect, test } from "vitest";
import { ROOT } from "./helpers/build-helpers.js";
import { KEYS, useHttpFixture } from "./helpers/http-setup.js";

const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const fixture = useHttpFixture();
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGTERM");
});

/** Starts serve; resolves once it printed `until` on stdout or exited, with what it wrote. */
function serve(args: string[], env: Record<string, string> = {}, until = /listening on (http:\/\/\S+)/) {
  const child = spawn(process.execPath, ["--import", TSX_LOADER, path.join(ROOT, "scripts/serve.ts"), ...args], {
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

async function waitFor(read: () => string, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 200 && !pattern.test(read()); i++) await new Promise((r) => setTimeout(r, 25));
  return read();
}

test("a snapshot folder that does not exist: listening, one line saying so, then 503s", async () => {
  const child = serve(["--snapshot", "no-such-snapshot", "--access", fixture.accessFile, "--port", "0"]);
  const started = await child;
  expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const proc = running.at(-1)!;
  let stderr = "";
  proc.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
  stderr = await waitFor(() => started.stderr + stderr, /cannot be served/);
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
