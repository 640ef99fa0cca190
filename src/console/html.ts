/** HTML text and attribute escaping for the console's views: every value from outside goes through `escape`. */
export function escape(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** A tagged template whose `${}` values are escaped, except those already `Html`. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

/** Markup the module itself wrote (an attribute, its own stylesheet): never outside text. */
export function trusted(text: string): Html {
  return new Html(text);
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    const piece = Array.isArray(value) ? value.map((item) => (item instanceof Html ? item.text : escape(item))).join('') : value instanceof Html ? value.text : value === null || value === undefined || value === false ? '' : escape(value);
    out += piece + (strings[index + 1] ?? '');
  });
  return new Html(out);
}
