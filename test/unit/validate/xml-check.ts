/**
 * A small well-formedness checker for the SVG and HTML the validation report produces: tags
 * nest and close, attribute values are quoted and unique per element, `&` only starts a known or
 * numeric entity, `<` never appears in text. In HTML mode the void elements (img, meta, br, …)
 * need no closing tag and a leading <!DOCTYPE html> is allowed. Returns the elements met.
 */

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const ENTITY = /^&(#[0-9]+|#x[0-9a-fA-F]+|amp|lt|gt|quot|apos);/;

export interface Element {
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
}

export function checkMarkup(src: string, mode: "xml" | "html" = "xml"): Element[] {
  const elements: Element[] = [];
  const stack: string[] = [];
  let i = 0;
  const fail = (msg: string): never => {
    throw new Error(`${msg} at offset ${i}: …${src.slice(Math.max(0, i - 40), i + 40)}…`);
  };
  const text = (s: string): void => {
    for (let k = 0; k < s.length; k++) {
      if (s[k] === "&" && !ENTITY.test(s.slice(k))) fail("bare &");
      if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(s[k]!)) fail("control character");
    }
  };
  while (i < src.length) {
    const lt = src.indexOf("<", i);
    if (lt < 0) {
      text(src.slice(i));
      break;
    }
    text(src.slice(i, lt));
    i = lt;
    if (src.startsWith("<!DOCTYPE", i)) {
      if (mode !== "html" || elements.length > 0) fail("unexpected doctype");
      i = src.indexOf(">", i) + 1;
      continue;
    }
    if (src.startsWith("<?xml", i)) {
      i = src.indexOf("?>", i) + 2;
      continue;
    }
    const close = /^<\/([A-Za-z][\w:-]*)\s*>/.exec(src.slice(i));
    if (close) {
      const top = stack.pop();
      if (top !== close[1]) fail(`</${close[1]}> closes <${top}>`);
      i += close[0].length;
      continue;
    }
    const open = /^<([A-Za-z][\w:-]*)/.exec(src.slice(i));
    if (!open) fail("stray <");
    const name = open![1]!;
    i += open![0].length;
    const attributes = new Map<string, string>();
    for (;;) {
      const ws = /^\s*/.exec(src.slice(i))![0];
      i += ws.length;
      if (src.startsWith("/>", i)) {
        i += 2;
        elements.push({ name, attributes });
        break;
      }
      if (src[i] === ">") {
        i += 1;
        elements.push({ name, attributes });
        if (!(mode === "html" && VOID.has(name.toLowerCase()))) stack.push(name);
        break;
      }
      if (ws.length === 0) fail("attributes must be separated by whitespace");
      const attr = /^([A-Za-z_:][\w:.-]*)="([^"<]*)"/.exec(src.slice(i));
      if (!attr) fail("malformed attribute");
      if (attributes.has(attr![1]!)) fail(`duplicate attribute ${attr![1]}`);
      i += attr![0].length;
      text(attr![2]!);
      attributes.set(attr![1]!, attr![2]!);
    }
  }
  if (stack.length > 0) throw new Error(`unclosed elements: ${stack.join(" > ")}`);
  return elements;
}

/** Counts the elements of a name, optionally with a class token. */
export function count(elements: readonly Element[], name: string, cls?: string): number {
  return elements.filter(
    (e) => e.name === name && (cls === undefined || (e.attributes.get("class") ?? "").split(/\s+/).includes(cls)),
  ).length;
}
