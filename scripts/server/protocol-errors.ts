/**
 * Answers for requests Node's HTTP parser refuses before they reach the core: a malformed request
 * line or header (400), a URL or headers too large (431), an idle socket (408), an Expect value
 * other than 100-continue (417), CONNECT (405), an HTTP/1.1 request without Host (400; Node's own
 * check sends a bare 400, so the server turns it off and asks here). Spec §7 gives every non-200
 * response the error envelope, so these carry it too, with X-Request-Id, nosniff and
 * Connection: close (decision: requests the parser refuses).
 */
import { randomUUID } from "node:crypto";
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, methodNotAllowed } from "../../api/_core/respond/errors.js";
import { errorResponse } from "../../api/_core/respond/error-response.js";

/** Node's parser error codes → status and message (the codes Node's own default handler maps). */
function refusalOf(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return { status: 431, message: "The request's URL and headers are too large for this server." };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { status: 413, message: "The request's chunk extensions are too large." };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, message: "The request was not received in time; send it again." };
    default:
      return { status: 400, message: "The request is not valid HTTP/1.1 and could not be read." };
  }
}

/** The envelope's status, headers and body for a refusal outside the core. */
function refusal(error: ApiError) {
  const response = errorResponse(error, randomUUID());
  const headers: Record<string, string> = {
    ...response.headers,
    connection: "close",
    date: new Date().toUTCString(),
  };
  return { status: error.status, headers, body: response.body };
}

/** A 4xx the parser's refusal maps to (code bad_request). */
const badRequest = (status: number, message: string) => new ApiError(status, "bad_request", message);

/** The refusal as raw HTTP/1.1 bytes, for a socket that has no response object. */
function rawRefusal(error: ApiError): Buffer {
  const { status, headers, body } = refusal(error);
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return Buffer.concat([Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n`, "latin1"), body]);
}

function onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset peer, or a response already under way, cannot take another one.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, message } = refusalOf(error.code);
  socket.end(rawRefusal(badRequest(status, message)));
}

function onConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on("error", () => socket.destroy());
  socket.end(rawRefusal(methodNotAllowed("CONNECT")));
}

/** Sends a refusal on a request Node did parse. */
function refuse(req: IncomingMessage, res: ServerResponse, error: ApiError): void {
  const { status, headers, body } = refusal(error);
  res.writeHead(status, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}

function onCheckExpectation(req: IncomingMessage, res: ServerResponse): void {
  refuse(req, res, badRequest(417, "The Expect header's only supported value is 100-continue."));
}

/** Node's own Host check answers with an empty 400: turn it off (createServer) and call this first. */
export const SERVER_OPTIONS = { requireHostHeader: false } as const;

/** Answers an HTTP/1.1 request without Host (RFC 9112 §3.2) and says so; false for any other request. */
export function refusedForMissingHost(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.headers.host !== undefined || req.httpVersionMajor !== 1 || req.httpVersionMinor < 1) return false;
  refuse(req, res, badRequest(400, "An HTTP/1.1 request must carry a Host header."));
  return true;
}

/** Makes every request the parser refuses an error envelope instead of a bare status line. */
export function answerProtocolErrors(server: Server): void {
  server.on("clientError", onClientError);
  server.on("connect", onConnect);
  server.on("checkExpectation", onCheckExpectation);
}
