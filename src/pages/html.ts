/**
 * Hand-written HTML templating: the `markup` tagged template escapes every interpolated value
 * unless it is already `SafeHtml`, so markup is only ever built from literals and escaped text.
 * Attributes in templates are always double-quoted; the same escaping covers text and attributes.
 */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Markup that is safe to emit as it is. Only `markup` and `raw` make one. */
export class SafeHtml {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text
  }
}

/** What may be interpolated: `null`, `undefined` and booleans render nothing (for `cond && …`). */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | HtmlValue[]

/** Escapes `& < > " '`: safe in element text and in double- or single-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.text
  if (Array.isArray(value)) return value.map(render).join('')
  if (value === null || value === undefined || typeof value === 'boolean') return ''
  return escapeHtml(String(value))
}

export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? ''
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '')
  })
  return new SafeHtml(out)
}

/** Trusted markup written in this folder (never stored values). */
export function raw(text: string): SafeHtml {
  return new SafeHtml(text)
}
