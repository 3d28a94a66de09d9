/**
 * `npm run gateway-secret`: writes a new random gateway secret (decision: gateway secret) into
 * generated/gateway-secret, which vercel.json's build command runs after the snapshot build, so
 * each deployment's middleware and function share a secret no one else can know. The file is
 * git-ignored and .vercelignore'd, written atomically; the secret is never printed. It is readable
 * by any user (0644, its folder 0755, whatever the umask): the bundles carry these modes, and the
 * platform may run them as a user other than the files' owner (decision: gateway secret).
 *
 *     npm run gateway-secret [-- --root DIR]   (DIR: the project root, default the current folder)
 */
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { GATEWAY_SECRET_FILE } from "../api/_adapters/gateway-secret.js";

/** Readable by the user the platform runs a bundle as, who need not own its files. */
const FILE_MODE = 0o644;
const FOLDER_MODE = 0o755;

/** Writes a fresh secret under `root`; returns the file's path. */
function writeGatewaySecret(root: string): string {
  const file = path.join(root, GATEWAY_SECRET_FILE);
  mkdirSync(path.dirname(file), { recursive: true });
  // Set outright: the umask must not decide, and an earlier build left the folder owner-only.
  chmodSync(path.dirname(file), FOLDER_MODE);
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w", FILE_MODE);
  try {
    fchmodSync(fd, FILE_MODE);
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
