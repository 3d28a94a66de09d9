/**
 * Layout checks run inside the browser (page.evaluate) on the docs page's code blocks (decision:
 * the documentation page): where wrapped lines break, whether their continuation keeps the line's
 * indentation, and whether an element fixed to the screen lies over code. Each function is
 * self-contained, as playwright sends its source to the page; the browser's globals are typed
 * loosely (this project compiles without the DOM library).
 */

/** Where a wrapped line may break: after a space, or after one of these (never inside an id). */
export const BREAK_AFTER = " &?/=,(";

export interface CodeLayoutProblems {
  /** How many source lines wrapped (so a check of none is not a pass by default). */
  wrapped: number;
  /**
   * `before|after` around each wrap that is not after a space or one of BREAK_AFTER, unless the
   * stretch it breaks began a screen line and is longer than one (there is no better place).
   */
  breaks: string[];
  /** Each source line whose continuation does not start right of the line's own first character. */
  indents: string[];
}

/** The wrapping problems of every code block matched by `selector`; `breakAfter` is BREAK_AFTER. */
export function codeLayoutProblems({
  selector,
  breakAfter,
}: {
  selector: string;
  breakAfter: string;
}): CodeLayoutProblems {
  const { document } = globalThis as any;
  const problems: CodeLayoutProblems = { wrapped: 0, breaks: [], indents: [] };
  for (const block of document.querySelectorAll(selector)) {
    // Each text node with its offset in the block's text, so a character's box can be measured.
    const nodes: Array<{ node: any; start: number }> = [];
    const walker = document.createTreeWalker(block, 4 /* NodeFilter.SHOW_TEXT */);
    let text = "";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push({ node, start: text.length });
      text += node.data;
    }
    const boxOf = (offset: number) => {
      let i = nodes.length - 1;
      while (i > 0 && nodes[i]!.start > offset) i--;
      const { node, start } = nodes[i]!;
      const range = document.createRange();
      range.setStart(node, offset - start);
      range.setEnd(node, offset - start + 1);
      return [...range.getClientRects()].find((r: any) => r.width > 0);
    };
    let lineStart = 0;
    for (const line of text.split("\n")) {
      let previous: { offset: number; top: number } | undefined;
      let firstLeft: number | undefined;
      let wrapped = false;
      let unindented = false;
      for (let i = 0; i < line.length; i++) {
        const box = line[i] === " " ? undefined : boxOf(lineStart + i);
        if (!box) continue;
        firstLeft ??= box.left;
        if (previous && Math.abs(box.top - previous.top) > box.height / 2) {
          const wrappedAtSpace = line.slice(previous.offset + 1, i).includes(" ");
          let stretch = previous.offset;
          while (stretch > 0 && !breakAfter.includes(line[stretch - 1]!)) stretch--;
          const stretchBegunLine =
            stretch === 0 || boxOf(lineStart + stretch)?.top !== boxOf(lineStart + stretch - 1)?.top;
          if (!wrappedAtSpace && !breakAfter.includes(line[previous.offset]!) && !stretchBegunLine)
            problems.breaks.push(
              `${line.slice(Math.max(0, previous.offset - 19), previous.offset + 1)}|${line.slice(i, i + 20)}`,
            );
          wrapped = true;
          unindented ||= box.left <= firstLeft! + 1;
        }
        previous = { offset: i, top: box.top };
      }
      if (wrapped) problems.wrapped++;
      if (unindented) problems.indents.push(line.trim().slice(0, 60));
      lineStart += line.length + 1;
    }
  }
  return problems;
}

/** The code blocks matched by `selector` that an element fixed (or stuck) to the screen lies over, now. */
export function fixedOverCode(selector: string): string[] {
  const { document, getComputedStyle, innerWidth, innerHeight } = globalThis as any;
  const onScreen = (r: any) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0;
  const fixed = [...document.querySelectorAll("body *")].filter((element: any) => {
    const style = getComputedStyle(element);
    const pinned = style.position === "fixed" || style.position === "sticky";
    return pinned && style.visibility !== "hidden" && onScreen(element.getBoundingClientRect());
  });
  const overlaps: string[] = [];
  for (const code of document.querySelectorAll(selector)) {
    const box = code.getBoundingClientRect();
    if (!onScreen(box) || box.left >= innerWidth) continue;
    for (const element of fixed) {
      const over = element.getBoundingClientRect();
      const apart =
        over.right <= box.left || over.left >= box.right || over.bottom <= box.top || over.top >= box.bottom;
      if (!apart)
        overlaps.push(
          `"${(element.textContent || element.className).trim().slice(0, 30)}" over ` +
            `"${code.textContent.trim().slice(0, 30)}"`,
        );
    }
  }
  return overlaps;
}
