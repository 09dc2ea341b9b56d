/**
 * A minimal XML writer for the e-invoices: a tree of elements serialized with every text and
 * attribute value escaped, so a client's name such as `<&"'` can never become markup. Values
 * with characters XML 1.0 cannot carry (control characters other than tab, newline and carriage
 * return; lone surrogates) are refused rather than silently dropped: a tax document must say
 * exactly what was recorded or not be produced.
 */
export interface XmlElement {
  name: string;
  attrs?: Record<string, string>;
  children?: XmlNode[];
}
export type XmlNode = XmlElement | string;

// The control characters are the point: XML 1.0 has no way to write them.
const NOT_XML_CHAR =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export class XmlValueError extends Error {}

function checked(value: string): string {
  if (NOT_XML_CHAR.test(value))
    throw new XmlValueError(`a value holds a character XML cannot carry: ${JSON.stringify(value)}`);
  return value;
}

export function escapeText(value: string): string {
  return checked(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttr(value: string): string {
  return escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

/** An element; `null`/`undefined`/`false` children are left out, so optional parts read as conditions. */
export function el(
  name: string,
  attrs: Record<string, string> | null,
  ...children: (XmlNode | XmlNode[] | null | undefined | false)[]
): XmlElement {
  const flat: XmlNode[] = [];
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) flat.push(...c);
    else flat.push(c);
  }
  return { name, ...(attrs ? { attrs } : {}), children: flat };
}

function write(node: XmlNode, depth: number, out: string[]): void {
  if (typeof node === 'string') {
    out.push(escapeText(node));
    return;
  }
  const pad = '  '.repeat(depth);
  const attrs = Object.entries(node.attrs ?? {})
    .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
    .join('');
  const children = node.children ?? [];
  if (children.length === 0) {
    out.push(`${pad}<${node.name}${attrs}/>\n`);
  } else if (children.every((c) => typeof c === 'string')) {
    out.push(`${pad}<${node.name}${attrs}>`);
    for (const c of children) write(c, 0, out);
    out.push(`</${node.name}>\n`);
  } else {
    out.push(`${pad}<${node.name}${attrs}>\n`);
    for (const c of children) {
      if (typeof c === 'string') throw new Error(`mixed content in <${node.name}>`);
      write(c, depth + 1, out);
    }
    out.push(`${pad}</${node.name}>\n`);
  }
}

/** The document as UTF-8 text with its XML declaration. */
export function serialize(root: XmlElement): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(root, 0, out);
  return out.join('');
}
