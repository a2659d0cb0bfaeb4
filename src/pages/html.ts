/** Markup that is already safe; only `html` and `raw` make one, so nothing reaches a page unescaped by accident. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** Template tag: every interpolated value is escaped unless it is itself SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/**
 * A catalogue text as markup: the text is escaped, and each `{name}` becomes its value, escaped
 * unless it is itself SafeHtml (so a placeholder can hold `<strong>` or a link).
 */
export function htmlText(template: string, params: Record<string, unknown> = {}): SafeHtml {
  return new SafeHtml(template.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name !== undefined && name in params ? render(params[name]) : escapeHtml(part);
  }).join(''));
}
