/**
 * A query parameter of a list endpoint, defined once (decision: query parameters): how it is
 * parsed and bounded, how it binds cursors, its OpenAPI description, the typed client's field
 * that carries it and what it selects. Route parsing, cursor binding, the OpenAPI document and
 * the client's query type are derived from the endpoint's table of these rows (or checked
 * against it by a test), so adding a parameter is one row plus its selection code.
 */
import type { SnapshotLists } from "../format/read/snapshot.js";

/** A query's values as the query parser decoded them, by name. */
export type Values = ReadonlyMap<string, string>;

/** An OpenAPI parameter object (public/openapi.json), under the component name the document gives it. */
export interface OpenApiParameter {
  component: string;
  parameter: Record<string, unknown>;
}

/**
 * A row of an endpoint's parameter table; `S` is what its selection builds. A row's value types are
 * its own (checked where the row is written); a table holds rows of every type.
 */
export interface Parameter<S = never> {
  /** The field of the parsed query it fills. */
  readonly key: string;
  /** Its names on the wire, in the order they are checked (`near`, then `radiusKm`). */
  readonly names: readonly string[];
  /** Its values are split on literal commas before they are percent-decoded (an item may hold `%2C`). */
  readonly splitBeforeDecoding?: boolean;
  /**
   * The field's value from the request's values (undefined when none of its names was given), or
   * a 400 naming the parameter.
   */
  parse(values: Values): unknown;
  /**
   * What a present value contributes to the cursor binding (decision: pagination), as JSON; null:
   * not bound (paging and embeds do not change which records a page holds). A bind that returns
   * undefined binds nothing for that value (a value equal to the default).
   */
  readonly bind: ((value: never) => unknown) | null;
  /** Its OpenAPI parameter objects, one per name. */
  readonly openapi: readonly OpenApiParameter[];
  /** The typed client's field that carries it (client/types.ts). */
  readonly client: string;
  /** Narrows what the list selects; null for a parameter that selects nothing (paging, embeds). */
  readonly select: Select<S> | null;
}

/**
 * Declared as a method's type, whose parameters TypeScript checks both ways: a row that selects
 * nothing (Parameter<never>) fits any endpoint's table.
 */
type Select<S> = { select(value: never, selection: S, lists: SnapshotLists): void }["select"];

/** A table of parameters: every parameter one endpoint takes, in the order they are checked. */
export type ParameterTable<S = never> = readonly Parameter<S>[];

type Query = Record<string, unknown>;

/** Every name the table accepts on the wire (strict query parsing refuses others). */
export function namesOf(table: ParameterTable): string[] {
  return table.flatMap((row) => row.names);
}

/** Names whose values are split before decoding. */
export function splitNamesOf(table: ParameterTable): string[] {
  return table.filter((row) => row.splitBeforeDecoding).flatMap((row) => row.names);
}

/** Parses every row in table order (a request with several bad parameters is told of the first). */
export function parseWith<Q>(table: ParameterTable, values: Values): Q {
  const query: Query = {};
  for (const row of table) {
    const value = row.parse(values);
    if (value !== undefined) query[row.key] = value;
  }
  return query as Q;
}

/** The bound fields of a parsed query, as [key, JSON value] in table order (cursor.ts turns them into a binding). */
export function boundFieldsOf(table: ParameterTable, query: object): Array<[string, unknown]> {
  const bound: Array<[string, unknown]> = [];
  for (const row of table) {
    const value = (query as Query)[row.key];
    const binding = row.bind && value !== undefined ? (row.bind as (v: unknown) => unknown)(value) : undefined;
    if (binding !== undefined) bound.push([row.key, binding]);
  }
  return bound;
}

/** Folds every present field's selection into `selection`. */
export function selectWith<S>(table: ParameterTable<S>, query: object, selection: S, lists: SnapshotLists): S {
  for (const row of table) {
    const value = (query as Query)[row.key];
    if (row.select && value !== undefined)
      (row.select as (v: unknown, s: S, l: SnapshotLists) => void)(value, selection, lists);
  }
  return selection;
}
