/**
 * The small HTML toolkit of the buyer pages: escaping and one layout. Pages are rendered on the
 * server so they work before (and without) their script; scripts and styles are separate files
 * served by the service, because the pages' CSP allows no inline script.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or attribute value → safe HTML. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export interface LayoutOptions {
  title: string;
  /** Stylesheets and scripts, as URLs served by this service. */
  styles: string[];
  scripts?: string[];
  /** Attributes of `<body>`, already escaped by the caller through `attrs`. */
  bodyAttrs?: string;
  body: string;
}

/** `{ a: 'x' }` → ` a="x"`, escaping values; undefined values are left out. */
export function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join('');
}

export function layout(o: LayoutOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${esc(o.title)}</title>
${o.styles.map((s) => `<link rel="stylesheet" href="${esc(s)}">`).join('\n')}
${(o.scripts ?? []).map((s) => `<script src="${esc(s)}" defer></script>`).join('\n')}
</head>
<body${o.bodyAttrs ?? ''}>
${o.body}
</body>
</html>
`;
}
