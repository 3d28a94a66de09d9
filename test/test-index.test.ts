/**
 * test/README.md, the table of which test covers which module or decision, names every test file
 * there is and none that is gone, so a newcomer can trust it to find the test of a module.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { ROOT } from "./helpers/build-helpers.js";

test("test/README.md lists exactly the test files", () => {
  const files = readdirSync(path.join(ROOT, "test")).filter((f) => f.endsWith(".test.ts"));
  const readme = readFileSync(path.join(ROOT, "test/README.md"), "utf8");
  const named = [...readme.matchAll(/`([a-z0-9.-]+\.test\.ts)`/g)].map((m) => m[1]!);
  expect([...new Set(named)].sort()).toEqual(files.sort());
});
