/**
 * The request sample of each operation (Redoc shows an operation's `x-codeSamples`), generated
 * from the operation table: a curl command in the getting-started section's form, with the
 * path parameter's example in the path and a small page for a list. It uses the page's two shell
 * variables, KEY (the API key) and API (the deployment's address with /v1), which the document's
 * overview explains.
 */
import { PATH_EXAMPLES } from "./examples.js";
import type { Operation } from "./operations.js";

/** The sample's page size: small enough to read in a terminal. */
const SAMPLE_LIMIT = 2;

/** The query an operation cannot do without (`/v1/places` asks for a name). */
const REQUIRED_SAMPLES: Partial<Record<string, string>> = { listPlaces: "q=london" };

/** The request of the sample: the operation's path below /v1, its ids filled in, a small page for a list. */
export function samplePath(op: Operation): string {
  const filled = op.path.replace(/^\/v1/, "").replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = PATH_EXAMPLES[name];
    if (value === undefined) throw new Error(`no example value for the path parameter ${name} of ${op.operationId}`);
    return encodeURIComponent(value);
  });
  const query = [REQUIRED_SAMPLES[op.operationId], op.parameters.includes("limit") && `limit=${SAMPLE_LIMIT}`];
  const given = query.filter((part): part is string => typeof part === "string");
  return given.length > 0 ? `${filled}?${given.join("&")}` : filled;
}

/**
 * The curl command of an operation, as the getting-started section writes them. An operation at the
 * origin (`/markets`) drops API's `/v1` by the shell's own suffix removal, so the two variables still do.
 */
export function curlSample(op: Operation): string {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's parameter expansion, not a template
  const base = op.atOrigin ? "${API%/v1}" : "$API";
  return `curl -s -H "Authorization: Bearer $KEY" "${base}${samplePath(op)}"`;
}

/** The operation's `x-codeSamples`. */
export function codeSamples(op: Operation): { lang: string; label: string; source: string }[] {
  return [{ lang: "Shell", label: "curl", source: curlSample(op) }];
}
