/** The adapter from Node's http (the local server and Vercel's Node runtime) to the core. */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
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

/** Whether the request announced a body that has not all arrived yet. */
function hasUnreadBody(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers["content-length"];
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
}

/**
 * Whether the connection ends with this answer (decision: slow requests): a 401, whose caller has
 * no key to hold a connection with, or any answer sent before the body was read, which would
 * otherwise be read to its end however slowly it comes. With `Connection: close`, Node closes the
 * socket once the answer is flushed and reads nothing more.
 */
function endsConnection(req: IncomingMessage, status: number): boolean {
  return status === 401 || hasUnreadBody(req);
}

/** How long a closing connection reads (and drops) what the client still sends, by default. */
export const LINGER_MS = 2000;

/**
 * Closes the connection as RFC 9112 §9.6 asks, where Node's own close (on `Connection: close`) would
 * destroy the socket as soon as the answer is flushed: closing with bytes of the body still unread
 * resets the connection, and the client may lose the answer before reading it. So the sending half
 * is closed first, what still comes is read and dropped, and the socket is destroyed once the
 * client closes its half or `lingerMs` have passed.
 */
function closeAfterAnswer(socket: Socket, lingerMs: number): void {
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    // Node's server ends the socket again when the client's half closes, and ending an ended
    // stream builds (then drops) an error with its stack: a fifth of a 401's CPU. Once is enough.
    socket.end = () => socket;
    socket.once("end", () => socket.destroy());
  };
}

function send(req: IncomingMessage, res: ServerResponse, response: CoreResponse, closing?: Closing): void {
  // Headers as one flat [name, value, …] list: Node takes it without walking an object's keys.
  const flat: string[] = [];
  for (const name in response.headers) flat.push(name, response.headers[name]!);
  if (closing && endsConnection(req, response.status)) {
    flat.push("connection", "close");
    if (res.socket) closeAfterAnswer(res.socket, closing.lingerMs);
  }
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

/** How the connection closes after a refusal (see endsConnection). */
export interface Closing {
  /** How long to read what the client still sends once the answer is out (LINGER_MS). */
  lingerMs: number;
}

export interface ListenerOptions {
  /**
   * Close the connection after a 401 or an answer sent before the body was read: the local server,
   * which owns its sockets (on Vercel the platform does).
   */
  closeAfterRefusals?: Closing;
}

/** Wraps the core as a Node request listener; a synchronous answer is sent without a promise. */
export function toNodeListener(handle: Handle, options: ListenerOptions = {}) {
  const closing = options.closeAfterRefusals;
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
        (response) => send(req, res, response, closing),
        (error: unknown) => send(req, res, outsideFailure(error), closing),
      );
    } else {
      send(req, res, answered, closing);
    }
  };
}
