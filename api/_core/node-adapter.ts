/** The adapter from Node's http (the local server and Vercel's Node runtime) to the core. */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CoreRequest, CoreResponse } from "./handle-request.js";

export type Handle = (request: CoreRequest) => Promise<CoreResponse>;

/** The envelope for a failure outside the core (a misconfigured deployment): no internals. */
function internalError(): CoreResponse {
  const requestId = randomUUID();
  const body = Buffer.from(
    JSON.stringify({ error: { code: "internal_error", message: "An unexpected error occurred; quote the request id when reporting it.", requestId } }),
  );
  return {
    status: 500,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-request-id": requestId, "content-length": String(body.length) },
    body,
  };
}

/** Wraps the core as a Node request listener. */
export function toNodeListener(handle: Handle) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let response: CoreResponse;
    try {
      response = await handle({ method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers });
    } catch (error) {
      response = internalError();
      process.stderr.write(`${JSON.stringify({ level: "error", requestId: response.headers["x-request-id"], error: String((error as Error)?.message ?? error) })}\n`);
    }
    res.writeHead(response.status, response.headers);
    res.end(req.method === "HEAD" ? undefined : response.body);
  };
}
