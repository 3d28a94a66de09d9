/** The Vercel function: every /v1/* request (see vercel.json) goes through the request core. */
import { deployedHandle } from "./_core/deployed.js";
import { toNodeListener } from "./_core/node-adapter.js";

export default toNodeListener(deployedHandle());
