/**
 * The TypeScript a reader copies from the docs compiles as written: the client snippet of the docs
 * page (public/index.html) and of the client guide (docs/client.md), type-checked by the TypeScript compiler with the
 * repository's own compiler options, as if saved at the repository's root, their import of the
 * package `@cinema-listings/client` resolved to its source, client/index.ts (the package itself,
 * built and installed, is test/client-package.test.ts's).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { beforeAll, expect, test } from "vitest";
import { ROOT } from "./helpers/build-helpers.js";

/** The name an app imports the client by (client/package.json). */
const PACKAGE = "@cinema-listings/client";
const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&amp;": "&" };

/** The code block after one of the page's headings, as the browser shows it (tags gone, entities decoded). */
function pageSnippet(heading = "TypeScript client"): string {
  const html = readFileSync(path.join(ROOT, "public/index.html"), "utf8");
  const section = html.slice(html.search(new RegExp(`<h2[^>]*>${heading}</h2>`)));
  const code = /<pre><code>([\s\S]*?)<\/code><\/pre>/.exec(section)?.[1];
  if (code === undefined) throw new Error(`public/index.html has no code block after its ${heading} heading`);
  return code.replace(/<[^>]+>/g, "").replace(/&(lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity]!);
}

/** Every ```ts block of the client guide (docs/client.md). */
function readmeSnippets(): string[] {
  const markdown = readFileSync(path.join(ROOT, "docs/client.md"), "utf8");
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** tsc's complaints about each source saved under its name at the repository's root, one line each. */
function typeErrors(sources: Record<string, string>): Record<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  )!;
  const files = new Map(Object.entries(sources).map(([name, text]) => [path.join(ROOT, name), text]));
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => files.get(path.resolve(name)) ?? readFile(name);
  host.fileExists = (name) => files.has(path.resolve(name)) || fileExists(name);
  const program = ts.createProgram({
    rootNames: [...files.keys()],
    options: { ...config.options, noEmit: true, paths: { [PACKAGE]: [path.join(ROOT, "client/index.ts")] } },
    host,
  });
  const errors: Record<string, string[]> = {};
  for (const name of Object.keys(sources)) {
    const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(path.join(ROOT, name)));
    errors[name] = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "));
  }
  return errors;
}

const WRONG = `import { createClient } from "${PACKAGE}";\ncreateClient({ baseUrl: 3000, apiKey: "k" });\n`;
let errors: Record<string, string[]>;
const readme = readmeSnippets();

beforeAll(() => {
  const sources: Record<string, string> = {
    "docs-page-snippet.ts": pageSnippet(),
    "docs-page-mirror.ts": pageSnippet("Keeping a mirror"),
    "wrong-snippet.ts": WRONG,
  };
  readme.forEach((snippet, i) => (sources[`readme-snippet-${i}.ts`] = snippet));
  errors = typeErrors(sources);
});

test("the docs page's mirror example type-checks as written", () => {
  expect(errors["docs-page-mirror.ts"]).toEqual([]);
});

test("the docs page's client snippet type-checks as written", () => {
  expect(pageSnippet()).toContain(`from "${PACKAGE}"`);
  expect(errors["docs-page-snippet.ts"]).toEqual([]);
});

test("the client guide's snippets type-check as written", () => {
  expect(readme.length).toBeGreaterThan(0);
  for (const snippet of readme) expect(snippet).toContain(`from "${PACKAGE}"`);
  expect(readme.map((_, i) => errors[`readme-snippet-${i}.ts`])).toEqual(readme.map(() => []));
});

test("a snippet with a type error is reported (the check can fail)", () => {
  expect(errors["wrong-snippet.ts"]).toEqual(["Type 'number' is not assignable to type 'string'."]);
});
