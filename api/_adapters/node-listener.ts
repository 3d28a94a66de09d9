/** The adapter from Node's http (the local server and Vercel's Node runtime) to the core. */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse } from "../_core/respond/error-response.js";
import type { CoreResponse, Handler } from "../_core/exchange.js";
import { nodeBodyReader } from "./request-body.js";

export type Handle = Handler;

/** The response for a failure outside the core (a misconfigured deployment): the usual envelope, no internals. */
function outsideFailure(error: unknown): CoreResponse {
  const requestId = randomUUID();
  const response = errorResponse(error, requestId);
  process.stderr.write(
    `${JSON.stringify({ level: "error", requestId, error: String((error as Error)?.message ?? error) })}\n`,
  );
  return response;
}

function send(req: IncomingMessage, res: ServerResponse, response: CoreResponse): void {
  // Headers as one flat [name, value, …] list: Node takes it without walking an object's keys.
  const flat: string[] = [];
  for (const name in response.headers) flat.push(name, response.headers[name]!);
  res.writeHead(response.status, flat);
  const body = req.method === "HEAD" ? undefined : response.body;
  // The callback runs once the body is handed to the system: its buffer may then be reused.
  if (response.release) res.end(body, response.release);
  else res.end(body);
}

/**
 * The request's headers, with every Authorization field kept: Node keeps only the first of
 * several, and a request with two keys is ambiguous (decision: one Authorization header).
 */
function headersOf(req: IncomingMessage): IncomingMessage["headers"] | Record<string, string | string[] | undefined> {
  if (req.headers.authorization === undefined) return req.headers;
  const raw = req.rawHeaders;
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === "authorization") values.push(raw[i + 1]!);
  return values.length > 1 ? { ...req.headers, authorization: values } : req.headers;
}

/** Wraps the core as a Node request listener; a synchronous answer is sent without a promise. */
export function toNodeListener(handle: Handle) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    let answered: CoreResponse | Promise<CoreResponse>;
    try {
      answered = handle({
        method: req.method ?? "GET",
        url: req.url ?? "/",
        headers: headersOf(req),
        readBody: nodeBodyReader(req),
      });
    } catch (error) {
      answered = outsideFailure(error);
    }
    if (answered instanceof Promise) {
      answered.then(
        (response) => send(req, res, response),
        (error: unknown) => send(req, res, outsideFailure(error)),
      );
    } else {
      send(req, res, answered);
    }
  };
}
