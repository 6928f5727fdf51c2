import { esc } from './html.ts';
import type { OpenApiDoc } from '../http/openapi-docs.ts';

/**
 * A static HTML reference of one OpenAPI document: operations grouped by tag, their parameters,
 * bodies and answers, then the schemas. Rendered on the server from the generated document, so
 * the reference is always the contract the service validates against, and needs no script.
 */
type Schema = {
  $ref?: string;
  type?: string;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  nullable?: boolean;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  additionalProperties?: unknown;
};
type Param = { $ref?: string; name?: string; in?: string; required?: boolean; description?: string; schema?: Schema };
type Op = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: Param[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
};

const refName = (ref: string) => ref.split('/').pop()!;

export function schemaText(s: Schema | undefined): string {
  if (!s) return '';
  if (s.$ref) return `<a href="#schema-${esc(refName(s.$ref))}">${esc(refName(s.$ref))}</a>`;
  const nul = s.nullable ? ' | null' : '';
  if (s.anyOf || s.oneOf) return (s.anyOf ?? s.oneOf)!.map(schemaText).join(' | ') + nul;
  if (s.allOf) return s.allOf.map(schemaText).join(' &amp; ') + nul;
  if (s.enum) return s.enum.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(' | ') + nul;
  if (s.type === 'array') return `${schemaText(s.items)}[]${nul}`;
  return `${esc(s.type ?? 'any')}${s.format ? ` <span class="muted">(${esc(s.format)})</span>` : ''}${nul}`;
}

function paramsOf(doc: OpenApiDoc, op: Op): Param[] {
  const components = (doc.components?.parameters ?? {}) as Record<string, Param>;
  return (op.parameters ?? []).map((p) => (p.$ref ? (components[refName(p.$ref)] ?? { name: refName(p.$ref) }) : p));
}

function renderOp(doc: OpenApiDoc, method: string, path: string, op: Op): string {
  const id = op.operationId ?? `${method}-${path}`;
  const params = paramsOf(doc, op);
  const body = op.requestBody?.content?.['application/json']?.schema;
  const rows = params
    .map(
      (p) =>
        `<tr><td><code>${esc(p.name ?? '')}</code></td><td>${esc(p.in ?? '')}</td><td>${schemaText(p.schema)}</td><td>${p.required ? 'yes' : ''}</td><td>${esc(p.description ?? '')}</td></tr>`,
    )
    .join('');
  const answers = Object.entries(op.responses ?? {})
    .map(([code, r]) => `<li><code>${esc(code)}</code> ${esc(r.description ?? '')} ${schemaText(r.content?.['application/json']?.schema)}</li>`)
    .join('');
  return `<section class="op" id="op-${esc(id)}">
<h3><span class="method method-${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code>${op.deprecated ? ' <span class="tag">deprecated</span>' : ''}</h3>
${op.summary ? `<p>${esc(op.summary)}</p>` : ''}${op.description ? `<p>${esc(op.description)}</p>` : ''}
${rows ? `<table><caption>Parameters</caption><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>${rows}</tbody></table>` : ''}
${body ? `<p><strong>Body:</strong> ${schemaText(body)}</p>` : ''}
<p><strong>Answers:</strong></p><ul class="answers">${answers}</ul>
</section>`;
}

function renderSchema(name: string, s: Schema): string {
  const required = new Set(s.required ?? []);
  const props = Object.entries(s.properties ?? {})
    .map(([k, v]) => `<tr><td><code>${esc(k)}</code></td><td>${schemaText(v)}</td><td>${required.has(k) ? 'yes' : ''}</td><td>${esc(v.description ?? '')}</td></tr>`)
    .join('');
  return `<section class="schema" id="schema-${esc(name)}"><h3>${esc(name)}</h3>${s.description ? `<p>${esc(s.description)}</p>` : ''}
${props ? `<table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>${props}</tbody></table>` : `<p>${schemaText({ ...s, description: undefined, properties: undefined })}</p>`}</section>`;
}

/** The reference body of one version. */
export function renderReference(doc: OpenApiDoc): string {
  const byTag = new Map<string, string[]>();
  const toc: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const op = raw as Op;
      const tag = op.tags?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), renderOp(doc, method, path, op)]);
      toc.push(`<li><a href="#op-${esc(op.operationId ?? `${method}-${path}`)}">${esc(method.toUpperCase())} ${esc(path)}</a></li>`);
    }
  }
  const info = (doc.info ?? {}) as { title?: string; description?: string; version?: string };
  const schemas = Object.entries((doc.components?.schemas ?? {}) as Record<string, Schema>).map(([n, s]) => renderSchema(n, s));
  return `<header><h1>${esc(info.title ?? 'API')} <span class="muted">${esc(info.version ?? '')}</span></h1>${info.description ? `<p>${esc(info.description)}</p>` : ''}</header>
<nav aria-label="Operations"><details><summary>All operations</summary><ul>${toc.join('')}</ul></details></nav>
${[...byTag].map(([tag, ops]) => `<section aria-labelledby="tag-${esc(tag)}"><h2 id="tag-${esc(tag)}">${esc(tag)}</h2>${ops.join('\n')}</section>`).join('\n')}
<section aria-labelledby="schemas"><h2 id="schemas">Schemas</h2>${schemas.join('\n')}</section>`;
}
