/** Field-level differences between two versions of one record (`durationMinutes 120 → 125`). */

/** One changed field; `from` or `to` is absent when the field was added or removed. */
export interface FieldChange {
  path: string;
  from?: unknown;
  to?: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Nested object fields join with dots (`location.postcode`); keys that are not plain names are quoted. */
function childPath(parent: string, key: string): string {
  const name = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
  return parent === "" ? name : `${parent}.${name}`;
}

/** Deep equality of JSON values, ignoring object key order (the bytes already differ, the data may not). */
function isSameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => isSameValue(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && isSameValue(a[k], b[k]));
  }
  return false;
}

function collect(from: unknown, to: unknown, path: string, changes: FieldChange[]): void {
  if (isPlainObject(from) && isPlainObject(to)) {
    for (const key of Object.keys(from)) {
      const next = childPath(path, key);
      if (!(key in to)) changes.push({ path: next, from: from[key] });
      else collect(from[key], to[key], next, changes);
    }
    for (const key of Object.keys(to)) if (!(key in from)) changes.push({ path: childPath(path, key), to: to[key] });
    return;
  }
  // Arrays (attributeIds) compare as whole values: their order is part of the record.
  if (!isSameValue(from, to)) changes.push({ path: path === "" ? "(record)" : path, from, to });
}

/** Every field that differs between two records, in the order the fields appear. */
export function diffFields(from: unknown, to: unknown): FieldChange[] {
  const changes: FieldChange[] = [];
  collect(from, to, "", changes);
  return changes;
}
