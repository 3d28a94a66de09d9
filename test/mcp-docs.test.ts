/**
 * What the docs promise of the MCP endpoint (decision: MCP): the docs page's example conversation
 * shows each tool call and the text it answers, on the demo data as data/ holds it, and each call
 * answers exactly that text; the client configurations of the page, the README and
 * docs/operations.md are JSON that names /mcp and sends the key; the curl command there answers;
 * its table of tools names every tool and exactly the arguments each takes.
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDiskWriter } from "../build/write/output-writer.js";
import { runBuild } from "../build/run-build.js";
import { toolDefinitions } from "../api/_core/mcp/tools.js";
import { startServer } from "../scripts/server/local-server.js";
import { makeTempDir, removeDir, ROOT } from "./helpers/build-helpers.js";
import { connectMcp, postMcp } from "./helpers/mcp-session.js";

const DEMO_KEY = "cl_demo_3f9a1c7e5b2d4086a1e7c9b3";
const decode = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

const page = readFileSync(path.join(ROOT, "public/index.html"), "utf8");
const operations = readFileSync(path.join(ROOT, "docs/operations.md"), "utf8");
const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");

/** The page's tool calls, each with the answer shown after it. */
/** A tool call of the page's conversation, then the answer shown for it. */
const TOOL_EXCHANGE = new RegExp(
  String.raw`<code class="tool-call" data-tool="([a-z_]+)">([\s\S]*?)</code>` +
    String.raw`[\s\S]*?<code class="tool-answer">([\s\S]*?)</code>`,
  "g",
);
const CONVERSATION = [...page.matchAll(TOOL_EXCHANGE)].map(
  (m) => [m[1]!, JSON.parse(decode(m[2]!)) as Record<string, unknown>, decode(m[3]!)] as const,
);

/** The part of docs/operations.md about assistants. */
const opsSection = /## Assistants \(MCP\)\n([\s\S]*?)\n## /.exec(operations)?.[1] ?? "";

let root: string;
let server: Server;
let base: string;

beforeAll(async () => {
  root = makeTempDir("mcp-docs");
  const built = await runBuild({
    dataDir: path.join(ROOT, "data"),
    output: createDiskWriter(path.join(root, "snapshot")),
    gzipWorkers: 0,
  });
  if (!built.ok) throw new Error("data/ does not build");
  ({ server, url: base } = await startServer({
    snapshotDir: path.join(root, "snapshot"),
    accessFile: path.join(ROOT, "data/demo-access.json"),
    port: 0,
    now: () => new Date("2026-11-23T12:00:00Z"),
    onError: () => {},
  }));
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  removeDir(root);
});

describe("the docs page's example conversation", () => {
  test("has tool calls, each followed by the answer it shows", () => {
    expect(CONVERSATION.map(([tool]) => tool)).toEqual(["find_films", "find_showtimes"]);
  });

  test.each(CONVERSATION)("%s %j answers the text the page shows", async (tool, args, shown) => {
    const { client } = await connectMcp(base, DEMO_KEY);
    try {
      const result = (await client.callTool({ name: tool, arguments: args })) as any;
      expect(result.isError).toBeFalsy();
      expect(result.content[0].text).toBe(shown);
    } finally {
      await client.close();
    }
  });
});

describe("the client configurations", () => {
  const jsonBlocks = (text: string) => [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const pageBlocks = [...page.matchAll(/<pre><code>(\{[\s\S]*?)<\/code><\/pre>/g)].map((m) => decode(m[1]!));
  const configs = [
    ...jsonBlocks(opsSection).map((json) => ["docs/operations.md", json] as const),
    ...jsonBlocks(readme)
      .filter((json) => json.includes("/mcp"))
      .map((json) => ["README.md", json] as const),
    ...pageBlocks.map((json) => ["docs page", json] as const),
  ];

  test("there are the VS Code, Cursor and Claude Desktop ones in the operations guide, one each elsewhere", () => {
    expect(configs.map(([where]) => where)).toEqual([
      "docs/operations.md",
      "docs/operations.md",
      "docs/operations.md",
      "README.md",
      "docs page",
      "docs page",
    ]);
  });

  test.each(configs)("%s: JSON naming /mcp, with the key in an Authorization header", (_where, json) => {
    const config = JSON.parse(json);
    const text = JSON.stringify(config);
    expect(text).toMatch(/\/mcp"/);
    expect(text).toMatch(/"Authorization"|Authorization:\$\{AUTH_HEADER\}/);
  });
});

test("the operations guide's curl command answers a tool call", async () => {
  const curl = /curl -s -X POST "\$D\/mcp"[\s\S]*?-d '([^']+)'/.exec(opsSection);
  expect(curl).not.toBeNull();
  const answer = await postMcp(base, curl![1]!, { key: DEMO_KEY });
  expect(answer.status).toBe(200);
  expect(answer.json().result.structuredContent.data.length).toBeGreaterThan(0);
});

describe("docs/operations.md's table of tools", () => {
  /** Each row's tools (its first cell) and the arguments its last cell names, by tool. */
  const documented = new Map<string, string[]>();
  for (const [, toolsCell, argumentsCell] of opsSection.matchAll(/^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \|.*\| (.*) \|$/gm)) {
    const tools = [...toolsCell!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
    const names = [...argumentsCell!.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]!);
    // A row of get-one tools names one id each, in the tools' order.
    tools.forEach((tool, i) => documented.set(tool, tools.length > 1 ? [names[i]!] : names));
  }

  test.each(toolDefinitions().map((tool) => [tool.name as string, tool] as const))(
    "%s: the arguments it takes, no more, no fewer",
    (name, tool) => {
      const schema = tool.inputSchema as { properties?: Record<string, unknown> };
      expect(documented.get(name)?.sort()).toEqual(Object.keys(schema.properties ?? {}).sort());
    },
  );

  test("names no tool the server does not have", () => {
    expect([...documented.keys()].sort()).toEqual(
      toolDefinitions()
        .map((tool) => tool.name as string)
        .sort(),
    );
  });
});
