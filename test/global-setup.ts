/**
 * Once per test run, before any test file: the command-line entries tests start as processes,
 * bundled (helpers/entry-bundles.ts), their folder given to the tests as `inject("entryBundles")`.
 */
import type { TestProject } from "vitest/node";
import { prepareBundles } from "./helpers/entry-bundles.js";

declare module "vitest" {
  interface ProvidedContext {
    /** The folder of this run's bundled entries (helpers/entry-bundles.ts). */
    entryBundles: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide("entryBundles", await prepareBundles());
}
