import { attrs, esc, layout } from './html.ts';

/**
 * The data-collection form, rendered from the option's JSON Schema (2020-12): one input per
 * property (type from `format`, constraints as data attributes the page script checks), the
 * fields of `anyOf` groups in one fieldset ("give at least one"), and a `const: true` property
 * as the terms checkbox. The same schema is checked again on the server.
 */
type Prop = { type?: string; title?: string; format?: string; pattern?: string; minLength?: number; maxLength?: number; const?: unknown };
export type FormSchema = { title?: string; properties: Record<string, Prop>; required?: readonly string[]; anyOf?: ReadonlyArray<{ title?: string; required: readonly string[] }> };

const AUTOCOMPLETE: Record<string, string> = { fullName: 'name', email: 'email', phone: 'tel', dateOfBirth: 'bday', country: 'country' };

function inputType(p: Prop): string {
  if (p.format === 'email') return 'email';
  if (p.format === 'date') return 'date';
  if (p.pattern?.startsWith('^\\+')) return 'tel';
  return 'text';
}

function field(name: string, p: Prop, required: boolean): string {
  const id = `f-${name}`;
  const error = `<p class="field-error" id="${esc(id)}-error" hidden></p>`;
  if (p.const === true) {
    return `<div class="field field-check"><input type="checkbox"${attrs({ id, name, value: 'true', 'data-const': 'true', 'aria-describedby': `${id}-error`, ...(required ? { 'aria-required': 'true' } : {}) })}><label for="${esc(id)}">${esc(p.title ?? name)}</label>${error}</div>`;
  }
  const a = attrs({
    id,
    name,
    type: inputType(p),
    autocomplete: AUTOCOMPLETE[name],
    'aria-describedby': `${id}-error`,
    'aria-required': required ? 'true' : undefined,
    maxlength: p.maxLength,
    'data-min-length': p.minLength,
    'data-pattern': p.pattern,
    'data-format': p.format,
  });
  return `<div class="field"><label for="${esc(id)}">${esc(p.title ?? name)}${required ? ' <span aria-hidden="true">*</span>' : ''}</label><input${a}>${error}</div>`;
}

export function renderCollectForm(schema: FormSchema, urls: { assetBase: string; postUrl: string }, merchantName: string): string {
  const required = new Set(schema.required ?? []);
  const grouped = new Set((schema.anyOf ?? []).flatMap((g) => g.required));
  const plain = Object.entries(schema.properties).filter(([n, p]) => !grouped.has(n) && p.const !== true);
  const consts = Object.entries(schema.properties).filter(([, p]) => p.const === true);
  const groupNames = [...grouped];
  const group = groupNames.length
    ? `<fieldset class="group" id="group-any" data-any-of="${esc(groupNames.join(' '))}" aria-describedby="group-any-error"><legend>${esc(schema.anyOf?.[0]?.title ?? 'One of')} — give at least one</legend>${groupNames
        .map((n) => field(n, schema.properties[n]!, false))
        .join('')}<p class="field-error" id="group-any-error" hidden></p></fieldset>`
    : '';
  const body = `<main class="card" id="collect"${attrs({ 'data-post-url': urls.postUrl })}>
<h1>${esc(schema.title ?? 'Your details')}</h1>
<p class="muted">${esc(merchantName || 'The merchant')} needs these details before you pay. Fields marked * are required.</p>
<div id="form-status" role="alert" class="form-status" hidden></div>
<form id="collect-form" novalidate>
${plain.map(([n, p]) => field(n, p, required.has(n))).join('\n')}
${group}
${consts.map(([n, p]) => field(n, p, required.has(n))).join('\n')}
<button type="submit" id="submit">Continue</button>
</form>
<div id="done" tabindex="-1" hidden><h2>Thank you</h2><p>Your details were sent. Return to your wallet to finish paying.</p></div>
</main>`;
  return layout({ title: 'Your details', styles: [`${urls.assetBase}/pages.css`], scripts: [`${urls.assetBase}/collect.js`], body });
}

/** A form link that cannot be used (expired, tampered, payment no longer payable): the reason goes to the wallet too. */
export function renderCollectError(assetBase: string, reason: string, message: string): string {
  const body = `<main class="card" id="collect"${attrs({ 'data-error': reason })}><h1>This form cannot be used</h1><p>${esc(message)}</p></main>`;
  return layout({ title: 'Form unavailable', styles: [`${assetBase}/pages.css`], scripts: [`${assetBase}/collect.js`], body });
}
