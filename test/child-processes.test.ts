/**
 * The suite's own hygiene (helpers/child-processes.ts): a test that fails by timing out leaves no
 * process behind, neither the one it started nor that one's children, so a red run never leaves
 * the machine busy (a timed-out lock test once left 8 contenders spinning).
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { startProcess } from "./helpers/child-processes.js";
import { scaled } from "./helpers/deadlines.js";

/** Whether the process runs (a zombie has ended: it only waits to be reaped). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  // No /proc here: whether a signal could reach it.
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The running processes of a process group, where /proc lists them. */
function groupMembers(group: number): number[] {
  const listed = (() => {
    try {
      return readdirSync("/proc").filter((name) => /^\d+$/.test(name));
    } catch {
      return [];
    }
  })();
  return listed.map(Number).filter((pid) => {
    try {
      // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so read after its last ")".
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return Number(pgrp) === group && state !== "Z";
    } catch {
      return false;
    }
  });
}

describe.sequential("a test that times out", () => {
  const started: { group?: number; grandchild?: number } = {};

  test.fails(
    "starts a shell that starts a sleep, both for ever, and times out waiting for them",
    async () => {
      const shell = startProcess("sh", ["-c", "sleep 1000 & echo $!; wait"], { stdio: ["ignore", "pipe", "inherit"] });
      started.group = shell.pid;
      const line = await new Promise<string>((resolve) => shell.stdout!.once("data", (chunk) => resolve(`${chunk}`)));
      started.grandchild = Number(line.trim());
      await new Promise(() => {});
    },
    scaled(1_000),
  );

  test("left nothing running: the shell, the sleep it started, nothing else of its process group", () => {
    expect(started.group).toBeGreaterThan(0);
    expect(running(started.group!)).toBe(false);
    expect(groupMembers(started.group!)).toEqual([]);
    // Once the shell had said which it was: the sleep, by its own pid.
    if (started.grandchild !== undefined) expect(running(started.grandchild)).toBe(false);
  });
});
