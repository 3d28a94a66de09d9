/**
 * A query parameter of a list endpoint, defined once (decision: query parameters): how it is
 * parsed and bounded, how it binds cursors, its OpenAPI description, the typed client's field
 * that carries it and what it selects. Route parsing, cursor binding, the OpenAPI document and
 * the client's query type are derived from the endpoint's table of these rows (or checked
 * against it by a test), so adding a parameter is one row plus its selection code.
 */
import type { SnapshotLists } from "../../format/read/snapshot.js";

/** A query's values as the query parser decoded them, by name. */
export type Values = ReadonlyMap<string, string>;

/** An OpenAPI parameter object (public/openapi.json), under the component name the document gives it. */
export interface OpenApiParameter {
  component: string;
  parameter: Record<string, unknown>;
}

/** What every row says, whatever it does: its names, how it parses, how it is documented and carried. */
interface RowBase {
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
   * Checks a parsed value against the snapshot that answers: ids of a closed catalogue must be in
   * it (decision: known attribute ids). A 400 naming the parameter, before any page is composed.
   */
  readonly checkKnown?: (value: never, lists: SnapshotLists) => void;
  /** Its OpenAPI parameter objects, one per name. */
  readonly openapi: readonly OpenApiParameter[];
  /** The typed client's field that carries it (client/types.ts). */
  readonly client: string;
}

/**
 * What a present value contributes to the cursor binding (decision: pagination), as JSON. A bind
 * that returns undefined binds nothing for that value (a value equal to the default).
 */
export type Bind = (value: never) => unknown;

/**
 * A filter: it narrows what the list selects, so it must say how it binds cursors (there is no
 * default: a filter a cursor forgot would let the cursor page on with other filters).
 * `select` returns the part of a selection the value asks for; the endpoint's `narrow` alone folds
 * parts together, by intersection, so no row can undo what another selected.
 */
export interface FilterRow<S> extends RowBase {
  readonly bind: Bind;
  readonly select: Select<S>;
}

/** A row that selects nothing: paging, embeds, the feed's token; bound or not, as it says. */
export interface PlainRow extends RowBase {
  readonly bind: Bind | null;
  readonly select: null;
}

/** A row of an endpoint's parameter table; `S` is the selection its filters narrow. */
export type Parameter<S = unknown> = FilterRow<S> | PlainRow;

/** Declared as a method's type, whose parameters TypeScript checks both ways: each row types its own value. */
type Select<S> = { select(value: never, lists: SnapshotLists): S }["select"];

/** A table of parameters: every parameter one endpoint takes, in the order they are checked. */
export type ParameterTable<S = unknown> = readonly Parameter<S>[];

/** Whether a row is a filter (it selects, so it binds). */
export function isFilter<S>(row: Parameter<S>): row is FilterRow<S> {
  return row.select !== null;
}

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

/**
 * Checks every present value whose row checks it against the snapshot (`checkKnown`), in table
 * order. The lists are asked only when a value is checked: a stored page does not open them.
 */
export function checkKnownWith(table: ParameterTable, query: object, lists: () => SnapshotLists): void {
  for (const row of table) {
    const value = (query as Query)[row.key];
    if (row.checkKnown && value !== undefined)
      (row.checkKnown as (v: unknown, l: SnapshotLists) => void)(value, lists());
  }
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

/**
 * Folds every present filter's part into `selection` with `narrow`, the endpoint's one way of
 * combining parts (an intersection), in table order.
 */
export function selectWith<S>(
  table: ParameterTable<S>,
  query: object,
  selection: S,
  lists: SnapshotLists,
  narrow: (selection: S, part: S) => void,
): S {
  for (const row of table) {
    const value = (query as Query)[row.key];
    if (isFilter(row) && value !== undefined)
      narrow(selection, (row.select as (v: unknown, l: SnapshotLists) => S)(value, lists));
  }
  return selection;
}
