/**
 * A JSON value as TypeScript source whose lines a reader can see whole: JSON.stringify's layout,
 * with a string too long for its line split at spaces into a concatenation, one piece per line.
 * The generated modules are read in review like any other source.
 */
const MAX_LINE = 120;
const INDENT = "  ";

/** `value` as a TypeScript expression beginning at `depth` levels of indentation. */
export function sourceLiteral(value: unknown, depth = 0): string {
  return renderMember(value, depth, "");
}

function render(value: unknown, depth: number): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => member(`${pad(depth + 1)}`, renderMember(item, depth + 1, ""), ""));
    return `[\n${items.join(",\n")}\n${pad(depth)}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const members = entries.map(([key, item]) => {
      const head = `${JSON.stringify(key)}: `;
      return member(`${pad(depth + 1)}${head.trimEnd()}`, renderMember(item, depth + 1, head), " ");
    });
    return `{\n${members.join(",\n")}\n${pad(depth)}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** A member's text after its head: on the head's line, or below it when the value is split. */
function member(head: string, text: string, gap: string): string {
  if (!text.startsWith("\n")) return `${head}${gap}${text}`;
  return head.trim() === "" ? text.slice(1) : `${head}${text}`;
}

function renderMember(value: unknown, depth: number, head: string): string {
  return typeof value === "string" ? stringLiteral(value, depth, head) : render(value, depth);
}

/** One literal when it fits after `head`; otherwise pieces ending at a space, joined with `+`. */
function stringLiteral(text: string, depth: number, head: string): string {
  const whole = JSON.stringify(text);
  if (pad(depth).length + head.length + whole.length + 1 <= MAX_LINE) return whole;
  const room = MAX_LINE - pad(depth + 1).length - " +".length;
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    const piece = firstPiece(rest, room);
    pieces.push(JSON.stringify(piece));
    rest = rest.slice(piece.length);
  }
  return `\n${pieces.map((piece) => `${pad(depth + 1)}${piece}`).join(" +\n")}`;
}

/** The longest prefix ending just after a space whose literal fits in `room`; a word too long is cut. */
function firstPiece(text: string, room: number): string {
  let end = 0;
  for (let at = text.indexOf(" "); at >= 0; at = text.indexOf(" ", at + 1)) {
    if (JSON.stringify(text.slice(0, at + 1)).length > room) break;
    end = at + 1;
  }
  if (end > 0 && JSON.stringify(text).length > room) return text.slice(0, end);
  if (JSON.stringify(text).length <= room) return text;
  let cut = Math.min(text.length, room - 2);
  while (cut > 1 && JSON.stringify(text.slice(0, cut)).length > room) cut--;
  return text.slice(0, cut);
}

const pad = (depth: number) => INDENT.repeat(depth);
