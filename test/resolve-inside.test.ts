/**
 * `resolveInside`, the one join of a file name to the snapshot folder (architecture: "Ids never
 * become paths"): a name is resolved lexically (no file system, so no symlink, is consulted) and
 * refused when the result is the folder itself or anything outside it. Nothing is decoded: `%2e`
 * is three characters. POSIX paths: on POSIX a backslash is an ordinary character of a name.
 */
import path from "node:path";
import { describe, expect, test } from "vitest";
import { resolveInside } from "../api/_core/format/primitives/files.js";

const ROOT = "/srv/snapshot";

/** What resolveInside makes of a name: the path, or the message it refuses it with. */
function outcome(root: string, relative: string): { path: string } | { refused: string } {
  try {
    return { path: resolveInside(root, relative) };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

const inside = (resolved: string) => ({ path: resolved });
const refused = (relative: string) => ({ refused: `path escapes the snapshot: ${relative}` });

describe.runIf(path.sep === "/")("resolveInside", () => {
  test.each<[string, string, { path: string } | { refused: string }]>([
    // Names that stay inside.
    ["a plain file name", "manifest.json", inside("/srv/snapshot/manifest.json")],
    ["a nested name", "a/b/c.json", inside("/srv/snapshot/a/b/c.json")],
    ["a '.' segment in the middle", "a/./b", inside("/srv/snapshot/a/b")],
    ["a leading './'", "./a", inside("/srv/snapshot/a")],
    ["a doubled slash", "a//b", inside("/srv/snapshot/a/b")],
    ["a trailing slash", "a/", inside("/srv/snapshot/a")],
    ["'..' that stays below the root", "a/b/../c", inside("/srv/snapshot/a/c")],
    ["out and back in: only where it lands counts", "../snapshot/x", inside("/srv/snapshot/x")],
    ["three dots are a name, not a step up", "...", inside("/srv/snapshot/...")],
    ["a name starting with two dots", "..x", inside("/srv/snapshot/..x")],
    ["an absolute path inside the root", "/srv/snapshot/x", inside("/srv/snapshot/x")],
    // The root itself: not a file of the snapshot.
    ["empty", "", refused("")],
    ["'.'", ".", refused(".")],
    ["down and back up to the root", "a/..", refused("a/..")],
    ["the root named absolutely", "/srv/snapshot", refused("/srv/snapshot")],
    // Escapes, at the bound and past it.
    ["'..'", "..", refused("..")],
    ["'../x'", "../x", refused("../x")],
    ["'a/../../x': one step up too many", "a/../../x", refused("a/../../x")],
    ["'a/../..'", "a/../..", refused("a/../..")],
    ["a sibling whose name starts with the root's", "../snapshot-evil/x", refused("../snapshot-evil/x")],
    ["an absolute path elsewhere", "/etc/passwd", refused("/etc/passwd")],
    ["the file system root", "/", refused("/")],
    // Nothing decoded, nothing reinterpreted.
    ["'%2e%2e' is a name, not '..'", "%2e%2e", inside("/srv/snapshot/%2e%2e")],
    ["'%2e%2e/x'", "%2e%2e/x", inside("/srv/snapshot/%2e%2e/x")],
    ["'%2e%2e%2fx': no encoded slash either", "%2e%2e%2fx", inside("/srv/snapshot/%2e%2e%2fx")],
    ["backslashes are name characters", "..\\x", inside("/srv/snapshot/..\\x")],
    ["'a\\..\\..\\x' is one name", "a\\..\\..\\x", inside("/srv/snapshot/a\\..\\..\\x")],
    // A NUL passes the join untouched; Node's file system calls refuse such a path when it is opened.
    ["a name holding NUL", "a\0b", inside("/srv/snapshot/a\0b")],
  ])("%s: %j", (_label, relative, expected) => {
    expect(outcome(ROOT, relative)).toEqual(expected);
  });

  test.each([
    ["with a trailing slash", "/srv/snapshot/"],
    ["with '.' and '..' in it", "/srv/./other/../snapshot"],
  ])("the root %s is normalized first: %s", (_label, root) => {
    expect(outcome(root, "x")).toEqual(inside("/srv/snapshot/x"));
    expect(outcome(root, "../x")).toEqual(refused("../x"));
    expect(outcome(root, "")).toEqual(refused(""));
  });

  test("a relative root is resolved from the working directory", () => {
    expect(outcome("snapshot", "x")).toEqual(inside(path.join(process.cwd(), "snapshot", "x")));
    expect(outcome("snapshot", "../x")).toEqual(refused("../x"));
  });
});
