/**
 * The release's Vercel steps, through the `vercel` command on PATH (npm run puts the pinned CLI,
 * node_modules/.bin/vercel, first), each run in the release's working folder: the project's
 * settings, `vercel build` with the candidate as the snapshot, and `vercel deploy --prebuilt`.
 * Authentication is the CLI's own: a `vercel login` on this machine, or VERCEL_TOKEN in CI.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { finishOutput } from "../vercel/vercel-build.js";
import { runProcess, tail } from "./processes.js";
import { ReleaseStop } from "./snapshot-steps.js";
import type { Target } from "./state.js";
import { OUTPUT_DIR, PROJECT_SNAPSHOT } from "./vercel-output-steps.js";
import { tightenPulledSecrets } from "./working-folder.js";

const VERCEL = "vercel";

function vercelEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // Telemetry off, as verify:vercel has it: a release sends Vercel nothing but the deployment, and
  // a dry run nothing at all (the CLI otherwise posts each command from a detached process).
  return { ...process.env, VERCEL_TELEMETRY_DISABLED: "1", NO_UPDATE_NOTIFIER: "1", FORCE_COLOR: "0", ...extra };
}

/** Where a release looks for the project it goes to. */
export const LINK_SOURCES = "(.vercel/project.json, or VERCEL_ORG_ID and VERCEL_PROJECT_ID)";

/**
 * Which project the release deploys to: `vercel link`'s file in the checkout, or the two variables
 * CI sets instead; undefined when neither names one.
 */
export function findLink(project: string, env: NodeJS.ProcessEnv): string | undefined {
  if (env.VERCEL_ORG_ID && env.VERCEL_PROJECT_ID) return `project ${env.VERCEL_PROJECT_ID} (VERCEL_PROJECT_ID)`;
  const file = path.join(project, ".vercel/project.json");
  let link: { projectId?: unknown; orgId?: unknown } = {};
  if (existsSync(file)) {
    try {
      link = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      // Reported below as not linked.
    }
  }
  if (typeof link.projectId === "string" && typeof link.orgId === "string")
    return `project ${link.projectId} (.vercel/project.json)`;
  return undefined;
}

/** The project a release (other than a dry run) deploys to; stops (exit 2) when none is linked. */
export function requireLink(project: string, env: NodeJS.ProcessEnv): string {
  const link = findLink(project, env);
  if (link !== undefined) return link;
  throw new ReleaseStop(
    2,
    "this folder is not linked to a Vercel project: run `npx vercel link` here, or set VERCEL_ORG_ID and " +
      "VERCEL_PROJECT_ID (docs/operations.md, Deploying); a --dry-run needs neither",
  );
}

function failed(step: string, outcome: { code: number; stdout: string; stderr: string }): ReleaseStop {
  const output = tail(`${outcome.stdout}\n${outcome.stderr}`);
  return new ReleaseStop(3, `${step} failed (exit ${outcome.code}):\n${output}\nnothing was deployed`);
}

/**
 * The project's settings and the target's environment, as `vercel build` needs them. The
 * environment files it writes hold the project's secrets: returns those it had to make owner-only.
 */
export async function vercelPull(project: string, target: Target): Promise<string[]> {
  const args = ["pull", "--yes", `--environment=${target}`];
  const outcome = await runProcess(VERCEL, args, { cwd: project, env: vercelEnv() });
  if (outcome.code !== 0) throw failed(`vercel ${args.join(" ")}`, outcome);
  return tightenPulledSecrets(project);
}

/**
 * `vercel build` with the candidate in snapshot/: RELEASE_SNAPSHOT_ID tells vercel.json's build
 * command to bundle it instead of building data/ (scripts/vercel-snapshot.ts). Then the bundles are
 * made readable by other users whatever the umask, and the function split per market for a
 * snapshot with markets (scripts/vercel/vercel-build.ts); returns what was made readable.
 */
export async function vercelBuild(project: string, target: Target, snapshotId: string): Promise<string[]> {
  const args = ["build", "--yes", "--standalone", ...(target === "production" ? ["--prod"] : [])];
  // VERCEL_INSTALL_COMPLETED: the dependencies are installed, so the Node builder installs none again.
  const env = vercelEnv({ RELEASE_SNAPSHOT_ID: snapshotId, VERCEL_INSTALL_COMPLETED: "1" });
  const outcome = await runProcess(VERCEL, args, { cwd: project, env });
  if (outcome.code !== 0) throw failed(`vercel ${args.join(" ")}`, outcome);
  return finishOutput(path.join(project, OUTPUT_DIR), path.join(project, PROJECT_SNAPSHOT));
}

/**
 * Uploads .vercel/output and waits until the platform says the deployment is ready; its progress
 * shows as it comes. Returns the deployment's URL, which the CLI prints alone on stdout.
 */
export async function vercelDeploy(project: string, target: Target): Promise<string> {
  const args = ["deploy", "--prebuilt", ...(target === "production" ? ["--prod"] : [])];
  const outcome = await runProcess(VERCEL, args, { cwd: project, env: vercelEnv(), passThrough: "stderr" });
  if (outcome.code !== 0) {
    const message = `vercel ${args.join(" ")} failed (exit ${outcome.code}); its messages are above`;
    throw new ReleaseStop(3, `${message}\nthe state is unchanged: the next release diffs against and deploys again`);
  }
  const url = outcome.stdout
    .trim()
    .split("\n")
    .reverse()
    .find((line) => /^https:\/\/\S+$/.test(line.trim()));
  if (url === undefined)
    throw new ReleaseStop(
      3,
      `vercel deploy exited 0 without a deployment URL: the state is unchanged\n${tail(outcome.stdout)}`,
    );
  return url.trim();
}
