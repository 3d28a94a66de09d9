/**
 * A tool's arguments are its endpoint's query parameters (decision: MCP): their schemas are the
 * parameter table's OpenAPI objects, and a call's arguments become the query string the same table
 * parses, so every bound is checked once, by the API's own rules, with the API's own messages.
 * Only `limit` is the tools' own: 1 to 20, default 10, a few lines each for a model to read; the
 * attribute catalogue comes whole, up to the API's 100 a page.
 */
import type { ListResource } from "../format/layout/manifest.js";
import { limitParameter } from "../endpoints/parameters/paging.js";
import { namesOf, type ParameterTable, splitNamesOf } from "../endpoints/parameters/parameter.js";
import { MAX_ID_LENGTH } from "../endpoints/parameters/query-values.js";
import { LIST_TABLES, type OneResource } from "../endpoints/parse-request.js";
import { badParameter } from "../respond/errors.js";
import { argumentSchemaOf, type JsonSchema } from "./tool-schemas.js";

export const TOOL_MAX_LIMIT = 20;
export const TOOL_DEFAULT_LIMIT = 10;

/** A list tool's page size: at most `max` records, `fallback` without `limit`. */
export interface ToolLimit {
  max: number;
  fallback: number;
}

/** The find tools' pages: a few lines per record for a model to read. */
export const TOOL_LIMIT: ToolLimit = { max: TOOL_MAX_LIMIT, fallback: TOOL_DEFAULT_LIMIT };

export type Arguments = Record<string, unknown>;

/** What a tool asks with a call's arguments: an API target (path and query), or a 400 naming an argument. */
export interface ToolTarget {
  inputSchema: JsonSchema;
  /** A list's largest page, its output schema's bound on `data`. */
  maxItems?: number;
  targetOf(args: Arguments): string;
}

/**
 * An argument as query text: strings as given, numbers in JavaScript's notation (the parser judges
 * it); null is no value.
 */
function textOf(name: string, value: unknown, schema: JsonSchema): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  const type = schema.type === "integer" || schema.type === "number" ? "a number" : "a string";
  throw badParameter(name, `must be ${type}, as the tool's input schema says`);
}

/** The argument names a call may give, or a 400 for the first it may not. */
function checkNames(tool: string, args: Arguments, properties: Record<string, JsonSchema>): void {
  for (const name of Object.keys(args))
    if (!Object.hasOwn(properties, name))
      throw badParameter(name, `is not an argument of ${tool} (allowed: ${Object.keys(properties).join(", ")})`);
}

/** A query component; a value split before decoding keeps its literal commas (attributeIds). */
function encoded(name: string, value: string, splitBeforeDecoding = false): string {
  try {
    return splitBeforeDecoding ? value.split(",").map(encodeURIComponent).join(",") : encodeURIComponent(value);
  } catch {
    // JSON may carry half a surrogate pair, which no URL (and no HTTP request) can.
    throw badParameter(name, "must be valid Unicode text (it holds half of a surrogate pair)");
  }
}

/**
 * A list tool: the list's parameters but those it leaves out, `fixed` added to every query (an
 * embed), pages of `pageSize`.
 */
export function listTarget(
  tool: string,
  resource: ListResource,
  omit: readonly string[] = [],
  fixed = "",
  pageSize: ToolLimit = TOOL_LIMIT,
): ToolTarget {
  const table: ParameterTable = (LIST_TABLES[resource] as ParameterTable).filter((row) => !omit.includes(row.key));
  return tableTarget(tool, `/v1/${resource}`, table, fixed, pageSize);
}

/**
 * A tool asking `path` with the parameters of `table` (a list's, or the places'), pages of
 * `pageSize`; a parameter the document marks required is a required argument.
 */
export function tableTarget(
  tool: string,
  path: string,
  table: ParameterTable,
  fixed = "",
  pageSize: ToolLimit = TOOL_LIMIT,
): ToolTarget {
  const split = new Set(splitNamesOf(table));
  const limitRow = limitParameter(pageSize.max, pageSize.fallback);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const row of table)
    for (const openapi of row.key === "limit" ? limitRow.openapi : row.openapi) {
      properties[openapi.parameter.name as string] = argumentSchemaOf(openapi);
      if (openapi.parameter.required === true) required.push(openapi.parameter.name as string);
    }
  const names = namesOf(table).filter((name) => name !== "limit");
  return {
    inputSchema: { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false },
    maxItems: pageSize.max,
    targetOf(args) {
      checkNames(tool, args, properties);
      const limit = textOf("limit", args.limit, properties.limit!);
      const parts = [`limit=${limitRow.parse(new Map(limit === undefined ? [] : [["limit", limit]]))}`];
      for (const name of names) {
        const text = textOf(name, args[name], properties[name]!);
        if (text !== undefined) parts.push(`${name}=${encoded(name, text, split.has(name))}`);
      }
      if (fixed) parts.push(fixed);
      return `${path}?${parts.join("&")}`;
    },
  };
}

/** A tool that takes no argument and always asks `target` (the list of markets). */
export function fixedTarget(tool: string, target: string): ToolTarget {
  const properties = {};
  return {
    inputSchema: { type: "object", properties, additionalProperties: false },
    targetOf(args) {
      checkNames(tool, args, properties);
      return target;
    },
  };
}

/** A get-one tool: one required argument, the id, which the path carries (percent-encoded). */
export function oneTarget(
  tool: string,
  resource: OneResource,
  idName: string,
  description: string,
  fixed = "",
): ToolTarget {
  const id: JsonSchema = { type: "string", minLength: 1, maxLength: MAX_ID_LENGTH, description };
  const properties = { [idName]: id };
  return {
    inputSchema: { type: "object", properties, required: [idName], additionalProperties: false },
    targetOf(args) {
      checkNames(tool, args, properties);
      const value = textOf(idName, args[idName], id);
      if (value === undefined) throw badParameter(idName, "is required");
      if (value === "") throw badParameter(idName, "must not be empty");
      return `/v1/${resource}/${encoded(idName, value)}${fixed ? `?${fixed}` : ""}`;
    },
  };
}
