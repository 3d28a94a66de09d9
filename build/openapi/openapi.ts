/**
 * The OpenAPI 3.1 document of the API, generated from the zod schemas that validate the data,
 * and the public documentation files it feeds. `npm run build` refreshes them; run this file
 * directly (`tsx build/openapi/openapi.ts`) to refresh them without building a snapshot.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RECORD_SCHEMAS_FILE, renderRecordSchemasModule } from "./mcp-schemas.js";
import { MARKET_SERVER, ORIGIN_SERVER, PARAMETERS, renderPaths, renderResponses } from "./paths.js";
import { renderComponentSchemas } from "./schemas.js";

export const PUBLIC_DIR = fileURLToPath(new URL("../../public", import.meta.url));

const OVERVIEW = `A read-only API of cinema listings: showtimes, cinemas, films and showtime attributes.
It implements the cinema-listings-v1 specification plus the decisions below.

**Authentication.** Every request sends \`Authorization: Bearer <API_KEY>\` (the word \`Bearer\` is
case-insensitive, the key is not). The key's organization must hold an active paid entitlement.

**Order of checks**, like a gateway in front of the application: 401 → 429 → 403 → 400 → 404.
A request without a valid key learns nothing else, not even whether an id exists.

**Pagination.** List endpoints take \`limit\` (1..100, default 25) and \`cursor\`. The response's
\`pagination.nextCursor\` is an opaque URL-safe string while \`hasMore\` is true, and \`null\` on the
last page. Pass it back unchanged with the same filters; \`limit\` may change. Cursors are
integrity-checked and bound to their endpoint and filters (a mismatch is a 400). A cursor names
the last record it served (keyset), so paging across a data update neither fails nor skips records
that still exist.

**Ordering.** Showtimes by \`startsAt\` as an instant, then \`id\`; cinemas, films and attributes by
\`id\` (plain string comparison).

**Filters** (showtimes): \`cinemaId\`, \`filmId\` and \`startsAfter\` combine with AND. \`startsAfter\` is
exclusive. A filter that matches nothing, including an unknown cinema or film id, gives 200 with an
empty page; an attribute id not in \`/v1/attributes\` is a 400 naming the nearest known ids.

**Strict parameters.** An unknown parameter, a repeated one, an empty value, or any query parameter
on a get-one endpoint is a 400 whose message and \`details.parameter\` name it.

**Freshness.** Every 200 carries \`freshness\`: see the Freshness schema.

**Caching.** 200s carry a strong \`ETag\`; \`If-None-Match\` gives a 304 once the key checks pass.
gzip and brotli are served when accepted. \`Cache-Control: private, max-age=60\`.

**Rate limits** count requests per organization across all its keys in fixed windows (600 per 60 s
unless the organization's contract says otherwise). Authenticated responses carry
\`RateLimit-Policy\` and \`RateLimit\`; a 429 adds \`Retry-After\`.

**Other methods.** \`HEAD\` is answered like \`GET\` without a body; any other method is a 405 with
\`Allow: GET, HEAD\` and code \`bad_request\`.

**Versioning.** Every operation but \`GET /markets\` is under \`/v1\` (in a market, \`/{market}/v1\`).

**Markets.** A deployment may serve its listings as markets (a country or a few), each its own data
at its own base address: \`/gb/v1/...\` and \`/gb/mcp\`, the second server below. \`GET /markets\`,
at the origin, lists them with what each holds and whether your key may use it. \`/v1\` serves the
default market if the deployment has one, and is otherwise a 404 naming the markets' addresses.
Cursors and sync tokens belong to the market that issued them (another market's is a 400), and a
key entitled to some markets only is refused the others with a 403 whose \`details.market\` names it.
A deployment without markets serves everything at \`/v1\`.

**Request samples** use two shell variables: \`KEY\`, your API key, and \`API\`, this deployment's
address followed by \`/v1\` (\`KEY=cl_demo_3f9a1c7e5b2d4086a1e7c9b3 API=http://localhost:3000/v1\` for
\`npm start\`).`;

/** The whole OpenAPI document as a plain object. */
export function createOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "Cinema Listings API",
      version: "1.0.0",
      summary: "Showtimes, cinemas, films and showtime attributes, read-only.",
      description: OVERVIEW,
    },
    // Relative: the deployment that serves this document serves the API (OpenAPI 3.1 §4.8.5); with
    // markets, each market's operations are under its id.
    servers: [ORIGIN_SERVER, MARKET_SERVER],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "Showtimes", description: "Screenings of films at cinemas." },
      { name: "Cinemas", description: "Cinemas and where they are." },
      { name: "Films", description: "Films being shown." },
      {
        name: "Attributes",
        description: "The catalogue of showtime attributes (accessibility, event, format, language).",
      },
      { name: "Changes", description: "Keeping a mirror in sync: every record once, then what changed since." },
      { name: "Markets", description: "What a deployment with markets serves, where, and what your key may use." },
    ],
    paths: renderPaths(),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "An API key issued to your organization, sent as `Authorization: Bearer <API_KEY>`.",
        },
      },
      schemas: renderComponentSchemas(),
      parameters: PARAMETERS,
      responses: renderResponses(),
    },
  };
}

/** The document as written to public/openapi.json: stable key order, two-space indent. */
export function renderOpenApi(): string {
  return `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`;
}

/** The renderer's script, served from public/ so the page needs no CDN. */
export function redocBundlePath(): string {
  return createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");
}

/** Redoc's attribution logo, fetched from its CDN by the stock bundle; the page allows no outside request. */
const REDOC_LOGO_URL = "https://cdn.redoc.ly/redoc/logo-mini.svg";
/** A small neutral mark in its place, inline: the page stays offline and its console clean. */
const INLINE_LOGO =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' " +
  "cy='8' r='6' fill='%238a94a6'/%3E%3C/svg%3E";

/** The Redoc bundle as public/ serves it: the installed one, its CDN logo replaced by an inline image. */
export function servedRedocBundle(): Buffer {
  const text = readFileSync(redocBundlePath(), "utf8");
  if (!text.includes(REDOC_LOGO_URL))
    throw new Error(`the Redoc bundle no longer names ${REDOC_LOGO_URL}: check its logo`);
  return Buffer.from(text.replaceAll(REDOC_LOGO_URL, INLINE_LOGO));
}

/** Writes a file only when its bytes change (no churn), through a rename so readers never see half. */
function writeIfChanged(file: string, bytes: Buffer): boolean {
  let current: Buffer | undefined;
  try {
    current = readFileSync(file);
  } catch {
    current = undefined;
  }
  if (current?.equals(bytes)) return false;
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, file);
  return true;
}

/** Refreshes the generated files of public/: the OpenAPI document and the Redoc bundle with its licence. */
export function writePublicDocs(publicDir: string = PUBLIC_DIR): string[] {
  const bundle = redocBundlePath();
  const files: [string, Buffer][] = [
    ["openapi.json", Buffer.from(renderOpenApi())],
    ["redoc.standalone.js", servedRedocBundle()],
    ["redoc.standalone.js.LICENSE.txt", readFileSync(`${bundle}.LICENSE.txt`)],
  ];
  return files.filter(([name, bytes]) => writeIfChanged(path.join(publicDir, name), bytes)).map(([name]) => name);
}

/** For the build CLI: a read-only checkout only warns, as the committed copy is checked by a test. */
export function refreshPublicDocs(warn: (message: string) => void): void {
  try {
    writePublicDocs();
  } catch (error) {
    warn(`build: public/ documentation not refreshed: ${(error as Error).message}\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const changed = writePublicDocs();
  process.stdout.write(changed.length ? `wrote public/${changed.join(", public/")}\n` : "public/ is up to date\n");
  // The MCP tools' schemas come from the same components (decision: MCP).
  const schemas = writeIfChanged(RECORD_SCHEMAS_FILE, Buffer.from(renderRecordSchemasModule()));
  process.stdout.write(
    schemas ? "wrote api/_core/mcp/record-schemas.ts\n" : "api/_core/mcp/record-schemas.ts is up to date\n",
  );
}
