/**
 * Serves a function built by `vercel build` the way Vercel runs it: a separate Node process whose
 * working directory is the function's folder, with only the deployment's environment, calling
 * the built handler (scripts/vercel/runtime.mjs). What is tested is exactly what would be deployed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const RUNTIME = fileURLToPath(new URL("./runtime.mjs", import.meta.url));
const START_TIMEOUT_MS = 20_000;

/** A user to run the function as (root only): Vercel may run it as another user than its files' owner. */
export interface RuntimeUser {
  uid: number;
  gid: number;
}

export interface LaunchedFunction {
  url: string;
  /** Everything the function wrote to stderr so far (crashes, error logs). */
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Starts the function in `funcDir` with `env` (plus what Vercel sets); resolves once it listens.
 * With `routesFile` (the output's config.json), requests see the query its rewrites would add;
 * with `user`, the process runs as that user, without the supplementary groups of this one.
 */
export function launchFunction(
  funcDir: string,
  env: Record<string, string>,
  routesFile?: string,
  user?: RuntimeUser,
): Promise<LaunchedFunction> {
  const child: ChildProcess = spawn(process.execPath, routesFile ? [RUNTIME, routesFile] : [RUNTIME], {
    cwd: funcDir,
    ...user,
    // Not the developer's environment: a stray SNAPSHOT_DIR or ACCESS_FILE must not help the bundle.
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      VERCEL: "1",
      VERCEL_ENV: "preview",
      VERCEL_REGION: "dev1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let started = false;
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        void close().then(() =>
          reject(new Error(`the function did not start within ${START_TIMEOUT_MS} ms\n${stderr}`)),
        ),
      START_TIMEOUT_MS,
    );
    child.stdout!.on("data", (chunk: Buffer) => {
      if (started) return; // later output is the function's request log
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        started = true;
        clearTimeout(timer);
        resolve({ url: match[1]!, stderr: () => stderr, close });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the function exited with code ${code} before listening\n${stderr}`));
    });
  });
}
