/**
 * The Vercel function: what the gateway (middleware.ts) forwards to the internal path, the health
 * check, and anything else vercel.json routes here, through the request core.
 */
import { deployedHandle } from "./_adapters/vercel.js";
import { toNodeListener } from "./_adapters/node-listener.js";

export default toNodeListener(deployedHandle());
