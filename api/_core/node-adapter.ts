/** The adapter from Node's http (the local server and Vercel's Node runtime) to the core. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CoreRequest, CoreResponse } from "./handle-request.js";

export type Handle = (request: CoreRequest) => Promise<CoreResponse>;

/** Wraps the core as a Node request listener. */
export function toNodeListener(handle: Handle) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const response = await handle({ method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers });
    res.writeHead(response.status, response.headers);
    res.end(response.body);
  };
}
