/** The adapter from Node's http (the local server and Vercel's Node runtime) to the core. */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse, type CoreRequest, type CoreResponse } from "./handle-request.js";

export type Handle = (request: CoreRequest) => Promise<CoreResponse>;

/** The response for a failure outside the core (a misconfigured deployment): the usual envelope, no internals. */
function outsideFailure(error: unknown): CoreResponse {
  const requestId = randomUUID();
  const response = errorResponse(error, requestId);
  response.headers["x-request-id"] = requestId;
  response.headers["x-content-type-options"] = "nosniff";
  response.headers["content-length"] = String(response.body.length);
  process.stderr.write(`${JSON.stringify({ level: "error", requestId, error: String((error as Error)?.message ?? error) })}\n`);
  return response;
}

function send(req: IncomingMessage, res: ServerResponse, response: CoreResponse): void {
  res.writeHead(response.status, response.headers);
  res.end(req.method === "HEAD" ? undefined : response.body);
}

/** Wraps the core as a Node request listener. */
export function toNodeListener(handle: Handle) {
  return (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let answered: Promise<CoreResponse>;
    try {
      answered = handle({ method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers });
    } catch (error) {
      answered = Promise.resolve(outsideFailure(error));
    }
    return answered.then(
      (response) => send(req, res, response),
      (error: unknown) => send(req, res, outsideFailure(error)),
    );
  };
}
