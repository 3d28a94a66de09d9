/**
 * The JSON Schemas a tool declares (decision: MCP): its output schema is the API's response schema
 * for the endpoint it asks, the same component the OpenAPI document gives it (record-schemas.ts,
 * generated), self-contained; its arguments' schemas are the parameter tables' OpenAPI objects.
 */
import type { OpenApiParameter } from "../endpoints/parameters/parameter.js";
import { RECORD_SCHEMAS } from "./record-schemas.js";
import { showtimeListingSchemas } from "./showtime-listing.js";

export type JsonSchema = Record<string, unknown>;

let schemas: Record<string, JsonSchema> | undefined;

/** The API's response schemas, and the tools' own (find_showtimes's listing) beside them. */
function schemaNamed(name: string): JsonSchema | undefined {
  schemas ??= { ...RECORD_SCHEMAS, ...showtimeListingSchemas() };
  return schemas[name];
}

/** The names of every definition `schema` references, directly or through others. */
function referencedDefinitions(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) referencedDefinitions(item, found);
  else if (schema !== null && typeof schema === "object") {
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/$defs/")) {
        const name = value.slice("#/$defs/".length);
        if (!found.has(name)) referencedDefinitions(schemaNamed(name), found.add(name));
      } else referencedDefinitions(value, found);
    }
  }
  return found;
}

/** The lists of a page: its records, and the films and cinemas of a showtime listing. */
const PAGE_LISTS = ["data", "films", "cinemas"];

/** A response component with the definitions it needs; a page's lists at most `maxItems` long. */
export function outputSchemaOf(component: string, maxItems?: number): JsonSchema {
  const root = schemaNamed(component);
  if (!root) throw new Error(`no response schema ${component}`);
  const properties = { ...(root.properties as Record<string, JsonSchema>) };
  if (maxItems !== undefined)
    for (const list of PAGE_LISTS) if (properties[list]) properties[list] = { ...properties[list], maxItems };
  const $defs = Object.fromEntries([...referencedDefinitions(root)].sort().map((name) => [name, schemaNamed(name)]));
  return { ...root, properties, $defs };
}

/** Whether a parameter is a list sent as one comma-separated value (OpenAPI `style: form`, not exploded). */
function isCommaList(parameter: Record<string, unknown>): boolean {
  return parameter.style === "form" && parameter.explode === false;
}

/**
 * An argument's schema: the parameter's own, described as the API documents it, references resolved.
 * A comma-separated list is its query value's text, as every argument is (decision: MCP).
 */
export function argumentSchemaOf({ parameter }: OpenApiParameter): JsonSchema {
  const list = isCommaList(parameter);
  const schema = list ? { type: "string", minLength: 1 } : (parameter.schema as JsonSchema);
  const ref = typeof schema.$ref === "string" ? schema.$ref : undefined;
  const resolved = ref?.startsWith("#/components/schemas/")
    ? RECORD_SCHEMAS[ref.slice("#/components/schemas/".length)]
    : schema;
  if (!resolved) throw new Error(`no schema ${ref}`);
  const example = list && Array.isArray(parameter.example) ? parameter.example.join(",") : parameter.example;
  const examples = example === undefined ? {} : { examples: [example] };
  return { ...resolved, description: parameter.description, ...examples };
}
