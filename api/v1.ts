/** The Vercel function: every /v1/* request (see vercel.json) goes through the request core. */
import { deployedHandle } from "./_adapters/vercel.js";
import { toNodeListener } from "./_adapters/node-listener.js";

export default toNodeListener(deployedHandle());
