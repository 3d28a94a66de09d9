/** A query parameter no release has had: bound alone, like any parameter added from now on (decision: pagination). */
import type { Parameter } from "../../api/_core/endpoints/parameters/parameter.js";

export const NEWCOMER: Parameter = {
  key: "newcomer",
  names: ["newcomer"],
  parse: (values) => values.get("newcomer"),
  bind: (value: string) => value,
  openapi: [],
  client: "newcomer",
  select: null,
};
