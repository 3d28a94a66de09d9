/**
 * The documentation page served at / (the reference of spec §4's endpoints) in a real browser:
 * Debian's chromium driven by playwright-core. The page must render the reference of every endpoint
 * from /openapi.json with the locally served Redoc bundle, offline: any request leaving the local
 * server fails the test. On a desktop and on a phone (390 px), the navigation is on the first
 * screen, nothing scrolls sideways, nothing pinned to the screen lies over the getting-started
 * code, and wrapped code breaks between a URL's parts (never inside an id) with its continuation
 * indented; every operation shows its request sample.
 */
import { existsSync, mkdirSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { OPERATIONS } from "../build/openapi/operations.js";
import { curlSample } from "../build/openapi/samples.js";
import { startServer } from "../scripts/server/local-server.js";
import { ROOT, makeTempDir, removeDir } from "./helpers/build-helpers.js";
import { writeAccessFile } from "./helpers/http-setup.js";
import { BREAK_AFTER, codeLayoutProblems, fixedOverCode } from "./helpers/page-layout.js";
import { findTool, whenInstalled } from "./helpers/system-tools.js";
import { scaled } from "./helpers/deadlines.js";

const CHROMIUM = findTool("chromium");
const ARTIFACTS = path.join(ROOT, "test/artifacts");
const DEMO_KEY = "cl_demo_3f9a1c7e5b2d4086a1e7c9b3";
// Quiet and offline: no first-run UI, no background fetches, no updates; no sandbox as CI runs as root.
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"].concat([
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]);
const REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";

describe("the documentation page in headless Chromium", whenInstalled("chromium"), () => {
  let root: string;
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const external: string[] = [];
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  const requested: string[] = [];

  beforeAll(async () => {
    root = makeTempDir("docs");
    // The page needs no snapshot: it only reads public files, which are served without a key.
    ({ server, url: origin } = await startServer({
      snapshotDir: path.join(root, "snapshot"),
      accessFile: writeAccessFile(root),
      port: 0,
      publicDir: path.join(ROOT, "public"),
    }));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") consoleErrors.push(message.text());
    });
    // Offline by construction: a CDN link or web font would show up here and fail the test.
    page.on("request", (request) => requested.push(request.url()));
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
      external.push(url);
      return route.abort();
    });
    await page.goto(`${origin}/`, { waitUntil: "load" });
    await page.waitForSelector(`[data-section-id="operation/${OPERATIONS.at(-1)!.operationId}"]`, {
      timeout: scaled(30_000),
    });
  });

  /** Pages by width, each loaded (the reference rendered) once: the loads were most of this file's time. */
  const byWidth = new Map<number, Promise<Page>>();

  /** A page of the given size with the reference rendered, scrolled to the top (shared by the tests of its width). */
  async function openAt(width: number, height: number): Promise<Page> {
    if (!byWidth.has(width))
      byWidth.set(
        width,
        (async () => {
          const fresh = await browser.newPage({ viewport: { width, height } });
          await fresh.goto(`${origin}/`, { waitUntil: "load" });
          await fresh.waitForSelector(`[data-section-id="operation/${OPERATIONS.at(-1)!.operationId}"]`, {
            timeout: scaled(30_000),
          });
          return fresh;
        })(),
      );
    const at = await byWidth.get(width)!;
    await at.setViewportSize({ width, height });
    await at.evaluate("window.scrollTo(0, 0)");
    return at;
  }

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (root) removeDir(root);
  });

  test.each(OPERATIONS.map((op) => [op.operationId, op.summary, op.path]))(
    "renders %s: its summary %j and its path %s",
    async (operationId, summary, opPath) => {
      const section = page.locator(`[data-section-id="operation/${operationId}"]`);
      await expect(section.count()).resolves.toBe(1);
      const text = await section.textContent();
      expect(text).toContain(summary);
      expect(text).toContain(opPath);
    },
  );

  test.each([
    ["a desktop", 1280, 900],
    ["a phone", 390, 844],
  ])(
    "on %s (%i×%i) the navigation is on the first screen and leads to every section and operation",
    async (_device, width, height) => {
      const at = await openAt(width, height);
      const nav = at.locator("nav#contents");
      const box = (await nav.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      const links = await nav
        .locator("a")
        .evaluateAll((anchors) => anchors.map((a) => ({ href: a.getAttribute("href")!, text: a.textContent!.trim() })));
      expect(links.filter((link) => link.href.startsWith("#operation/"))).toEqual(
        OPERATIONS.map((op) => ({ href: `#operation/${op.operationId}`, text: op.summary })),
      );
      const missing = await at.evaluate(
        (hrefs: string[]) => {
          const { document } = globalThis as any;
          return hrefs.filter((href) => !document.getElementById(decodeURIComponent(href.slice(1))));
        },
        links.map((link) => link.href),
      );
      expect(missing).toEqual([]);
      // Following a link brings its operation to the top of the screen.
      const last = OPERATIONS.at(-1)!;
      await nav.locator(`a[href="#operation/${last.operationId}"]`).click();
      await at.waitForFunction((id: string) => {
        const { document } = globalThis as any;
        return Math.abs(document.querySelector(`[data-section-id="operation/${id}"]`).getBoundingClientRect().top) < 50;
      }, last.operationId);
    },
  );

  test(
    "on a phone (390 px) nothing scrolls sideways: the page, its code blocks and the reference's " + "samples wrap",
    async () => {
      const phone = await openAt(390, 844);
      const overflow = await phone.evaluate(() => {
        // Inside the browser: its globals, typed loosely (this project compiles without the DOM library).
        const { document, getComputedStyle } = globalThis as any;
        const sideways = [...document.querySelectorAll("body *")].filter((element: any) => {
          const style = getComputedStyle(element);
          const scrolls = style.overflowX === "auto" || style.overflowX === "scroll" || element.tagName === "PRE";
          return scrolls && element.scrollWidth > element.clientWidth + 1 && style.display !== "none";
        });
        return {
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          elements: sideways.map(
            (e: any) => `${e.tagName} in ${e.closest("[data-section-id], section")?.id || "page"}`,
          ),
        };
      });
      expect(overflow).toEqual({ page: 0, elements: [] });
      mkdirSync(ARTIFACTS, { recursive: true });
      await phone.screenshot({ path: path.join(ARTIFACTS, "docs-page-390.png") });
    },
  );

  test.each([
    ["a desktop", 1280, 900],
    ["a phone", 390, 844],
  ])(
    "on %s (%i×%i) nothing pinned to the screen lies over the getting-started code, wherever it is scrolled",
    async (_device, width, height) => {
      const at = await openAt(width, height);
      const blocks = at.locator("#getting-started pre");
      const overlaps: string[] = [];
      for (let i = 0; i < (await blocks.count()); i++)
        for (const block of ["start", "end"]) {
          await blocks.nth(i).evaluate((element: any, where) => element.scrollIntoView({ block: where }), block);
          // Two frames: the page's scroll observers run before the next paint.
          await at.evaluate(
            () =>
              new Promise((done) =>
                (globalThis as any).requestAnimationFrame(() => (globalThis as any).requestAnimationFrame(done)),
              ),
          );
          overlaps.push(...(await at.evaluate(fixedOverCode, "#getting-started pre")));
        }
      expect(overlaps).toEqual([]);
    },
  );

  test.each([
    ["a desktop", 1280],
    ["a phone", 390],
  ])(
    "on %s (%i px) wrapped code breaks at a space or after one of & ? / = , ( (never inside an id), its " +
      "continuation indented",
    async (_device, width) => {
      const at = await openAt(width, 844);
      const problems = await at.evaluate(codeLayoutProblems, {
        selector: "#getting-started pre, redoc pre",
        breakAfter: BREAK_AFTER,
      });
      expect(problems.wrapped).toBeGreaterThan(0);
      expect({ breaks: problems.breaks, indents: problems.indents }).toEqual({ breaks: [], indents: [] });
    },
  );

  test.each(OPERATIONS.map((op) => [op.operationId, curlSample(op)]))(
    "%s shows its request sample: %s",
    async (operationId, sample) => {
      const section = page.locator(`[data-section-id="operation/${operationId}"]`);
      const text = await section.textContent();
      expect(text).toContain("Request samples");
      expect(text).toContain(sample);
    },
  );

  test("shows the getting-started section with curl examples, the demo key and this server's address", async () => {
    const text = await page.locator("#getting-started").textContent();
    expect(text).toContain("curl -s -H");
    expect(text).toContain(DEMO_KEY);
    expect(text).toContain(`API=${origin}/v1`);
  });

  test("loads nothing from outside the local server and logs no error", () => {
    expect(external).toEqual([]);
    expect(pageErrors, JSON.stringify(pageErrors)).toEqual([]);
    // Redoc 2.5 always renders its vendor logo from a CDN; the page's Content-Security-Policy refuses it
    // before any request is made, which the browser reports. Nothing else may appear.
    expect(consoleErrors).toEqual([]);
    expect(requested.filter((url) => url.includes("favicon") || url.includes(REDOC_LOGO))).toEqual([]);
  });

  test("public/openapi.json names this deployment as its server, and a market of it (decision: markets)", async () => {
    const doc = (await (await fetch(`${origin}/openapi.json`)).json()) as { servers: unknown };
    expect(doc.servers).toEqual([
      { url: "/", description: expect.any(String) },
      { url: "/{market}", description: expect.any(String), variables: { market: expect.any(Object) } },
    ]);
  });

  test(
    "usable before any script runs: the getting-started section and every endpoint, without " + "JavaScript",
    async () => {
      const bare = await browser.newPage({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
      try {
        await bare.goto(`${origin}/`, { waitUntil: "load" });
        await expect(bare.locator("#getting-started").isVisible()).resolves.toBe(true);
        const rows = await bare.locator("#endpoints tbody tr td:first-child").allInnerTexts();
        expect(rows.map((row) => row.replace("GET ", ""))).toEqual([...OPERATIONS].map((op) => op.path));
        mkdirSync(ARTIFACTS, { recursive: true });
        await bare.screenshot({ path: path.join(ARTIFACTS, "docs-page-before-scripts.png") });
      } finally {
        await bare.close();
      }
    },
  );

  test("saves screenshots to test/artifacts/ (the page's top, and the showtimes operation)", async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const top = path.join(ARTIFACTS, "docs-page.png");
    const operation = path.join(ARTIFACTS, "docs-list-showtimes.png");
    await page.evaluate("window.scrollTo(0, 0)");
    await page.screenshot({ path: top });
    await page.locator(`[data-section-id="operation/listShowtimes"]`).screenshot({ path: operation });
    expect([existsSync(top), existsSync(operation)]).toEqual([true, true]);
  });
});
