/**
 * Checks real responses against the OpenAPI document with a standard JSON Schema validator
 * (ajv, 2020-12 dialect, ajv-formats), so the document is tested as clients would use it.
 * Shared by the OpenAPI test and `npm run verify:vercel`.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import formatsPlugin from "ajv-formats";

type Json = Record<string, any>;

// ajv-formats is CommonJS; under NodeNext its default import is typed as the module object.
const addFormats = formatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;
const BASE = "https://cinema-listings.invalid/components/";

export interface DocumentedResponse {
  description: string;
  headers: Record<string, { required?: boolean }>;
  schema?: Json;
}

export interface ResponseValidator {
  /** The response an operation documents for a status, with its $refs resolved one level. */
  response(operationId: string, status: number): DocumentedResponse | undefined;
  /** Problems with a body against the documented schema; empty when it conforms. */
  checkBody(operationId: string, status: number, body: unknown): string[];
  /** Problems with response headers: a header the document marks required is missing. */
  checkHeaders(operationId: string, status: number, headers: Record<string, string | undefined>): string[];
  /** Problems with a value against any schema of the document (examples, parameters). */
  checkValue(schema: Json, value: unknown): string[];
}

/** Points `#/components/...` references at the ids the components are registered under. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (value === null || typeof value !== "object") return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === "$ref" && typeof item === "string" ? item.replace("#/components/", BASE) : relink(item);
  }
  return out;
}

function resolve(doc: Json, node: Json): Json {
  if (typeof node.$ref !== "string") return node;
  const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(node.$ref) ?? [];
  return doc.components?.[kind!]?.[name!] ?? {};
}

function findOperation(doc: Json, operationId: string): Json | undefined {
  for (const item of Object.values<Json>(doc.paths ?? {})) {
    if (item.get?.operationId === operationId) return item.get;
  }
  return undefined;
}

/** A validator for one OpenAPI document (3.1: its schemas are JSON Schema 2020-12). */
export function createResponseValidator(doc: Json): ResponseValidator {
  const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
  for (const [name, schema] of Object.entries<Json>(doc.components?.schemas ?? {})) {
    ajv.addSchema({ ...(relink(schema) as Json), $id: `${BASE}schemas/${name}` });
  }
  const compiled = new Map<Json, ValidateFunction>();

  function checkValue(schema: Json, value: unknown): string[] {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(relink(schema) as Json)));
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || "(body)"} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`,
    );
  }

  function response(operationId: string, status: number): DocumentedResponse | undefined {
    const raw = findOperation(doc, operationId)?.responses?.[String(status)];
    if (!raw) return undefined;
    const resolved = resolve(doc, raw);
    const headers: DocumentedResponse["headers"] = {};
    for (const [name, header] of Object.entries<Json>(resolved.headers ?? {}))
      headers[name] = { required: header.required === true };
    return { description: resolved.description, headers, schema: resolved.content?.["application/json"]?.schema };
  }

  return {
    response,
    checkValue,
    checkBody(operationId, status, body) {
      const documented = response(operationId, status);
      if (!documented) return [`${operationId} documents no ${status} response`];
      if (!documented.schema) return body === undefined ? [] : [`${operationId} ${status} documents no body`];
      return checkValue(documented.schema, body);
    },
    checkHeaders(operationId, status, headers) {
      const documented = response(operationId, status);
      if (!documented) return [`${operationId} documents no ${status} response`];
      return Object.entries(documented.headers)
        .filter(([name, header]) => header.required && headers[name.toLowerCase()] === undefined)
        .map(([name]) => `${operationId} ${status}: header ${name} is documented as always sent but is missing`);
    },
  };
}
