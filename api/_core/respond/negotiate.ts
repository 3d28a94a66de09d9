/** Content-coding and conditional-request rules (RFC 9110 §12.5.3, §13.1.2). */

export type Coding = "gzip" | "br" | "identity";

/** The q-value a client gives a coding, honouring `*` and explicit refusals (q=0). */
function qualityOf(header: string, coding: string): number {
  let wildcard: number | undefined;
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const quality = Number.isFinite(q) ? q : 0;
    if (name.trim() === coding) return quality;
    if (name.trim() === "*") wildcard = quality;
  }
  return wildcard ?? (coding === "identity" ? 1 : 0);
}

/** Picks the coding to send: gzip (stored that way) before br (compressed per request). */
export function chooseCoding(acceptEncoding: string | undefined): Coding {
  if (!acceptEncoding) return "identity";
  if (qualityOf(acceptEncoding, "gzip") > 0) return "gzip";
  if (qualityOf(acceptEncoding, "br") > 0) return "br";
  return "identity";
}

/** The strong entity tag of a representation: the body's tag plus its coding. */
export function entityTag(bodyTag: string, coding: Coding): string {
  return coding === "identity" ? `"${bodyTag}"` : `"${bodyTag}-${coding}"`;
}

/**
 * If-None-Match uses weak comparison, and a tag of another coding of the same body still
 * means the client holds this content, so it matches too.
 */
export function matchesIfNoneMatch(header: string | undefined, bodyTag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((raw) => {
    const tag = raw.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
    return tag === bodyTag || tag === `${bodyTag}-gzip` || tag === `${bodyTag}-br`;
  });
}
