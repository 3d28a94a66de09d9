/**
 * `npm run gateway-secret`: writes a new random gateway secret (decision: gateway secret) into
 * generated/gateway-secret, which vercel.json's build command runs after the snapshot build, so
 * each deployment's middleware and function share a secret no one else can know. The file is
 * git-ignored and .vercelignore'd, owner-only, written atomically; the secret is never printed.
 *
 *     npm run gateway-secret [-- --root DIR]   (DIR: the project root, default the current folder)
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { GATEWAY_SECRET_FILE } from "../api/_adapters/gateway-secret.js";

/** Writes a fresh secret under `root`; returns the file's path. */
function writeGatewaySecret(root: string): string {
  const file = path.join(root, GATEWAY_SECRET_FILE);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w", 0o600);
  try {
    writeSync(fd, `${randomBytes(32).toString("hex")}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  return file;
}

function main(): void {
  const { values } = parseArgs({ options: { root: { type: "string", default: "." } }, strict: true });
  const file = writeGatewaySecret(path.resolve(values.root));
  process.stdout.write(`wrote a new gateway secret to ${path.relative(process.cwd(), file) || file}\n`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`gateway-secret: ${(error as Error).message}\n`);
  process.exit(2);
}
