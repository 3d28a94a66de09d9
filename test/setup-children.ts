/**
 * Set up before every test file: whatever process a hook or the file's top level started
 * (helpers/child-processes.ts), with its own children, is ended once the file is over, after the
 * file's own afterAll hooks (which may stop a server gracefully first).
 */
import { afterAll } from "vitest";
import { endAllProcesses } from "./helpers/child-processes.js";

afterAll(endAllProcesses);
