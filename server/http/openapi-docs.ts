import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * The generated OpenAPI documents, loaded once at start, and the table of operations derived
 * from them. Routing, auth scopes and idempotency all read this table, so the spec is the single
 * source of what exists and who may call it.
 */
export type OpenApiDoc = {
  paths: Record<string, Record<string, OperationObject>>;
  security?: Array<Record<string, string[]>>;
  components?: Record<string, unknown>;
  [k: string]: unknown;
};

type ParameterObject = { name?: string; in?: string; required?: boolean; $ref?: string };
type OperationObject = { operationId?: string; security?: Array<Record<string, string[]>>; parameters?: ParameterObject[] };

export type AuthMode = 'partner' | 'wallet' | 'app';

export interface OperationInfo {
  operationId: string;
  method: string;
  /** OpenAPI path template, e.g. `/v1/merchants/{merchantId}`. */
  path: string;
  /** Express path, e.g. `/v1/merchants/:merchantId`. */
  expressPath: string;
  auth: AuthMode[];
  /** The deprecated legacy scheme: the partner key may come in `X-Api-Key` instead of `Api-Key`. */
  legacyKeyHeader: boolean;
  /** Idempotency-Key: required, optional or not used (reads may send one; a read has nothing to make safe). */
  idempotency: 'required' | 'optional' | 'none';
  deprecated: boolean;
  /** Header parameters the operation declares (lower case), e.g. `merchant-id`: they are part of its request. */
  headerParams: string[];
}

const SCHEME_MODE: Record<string, AuthMode> = { PartnerApiKey: 'partner', LegacyPartnerApiKey: 'partner', WalletApiKey: 'wallet' };
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export const generatedOpenApiDir = join(import.meta.dirname, '../../generated/openapi');

// Parsing the four YAML documents costs ~0.85 s of CPU; every app a process builds (each test
// file's apps, the dashboard's field table) used to pay it again. The parsed documents are kept as
// JSON text, keyed by the files' names, sizes and modification times (a regenerated folder is
// parsed again), and each call answers a fresh copy (JSON.parse, ~9 ms): callers, and the request
// validator, may change what they are handed without reaching another app's documents.
const parsedDocs = new Map<string, string>();

/** Every generated document, by version. */
export function loadOpenApiDocs(dir = generatedOpenApiDir): Map<string, OpenApiDoc> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  if (files.length === 0) throw new Error(`no OpenAPI documents in ${dir}: run \`npm run generate\``);
  const key = [
    dir,
    ...files.map((f) => {
      const st = statSync(join(dir, f));
      return `${f}:${st.size}:${st.mtimeMs}`;
    }),
  ].join('\n');
  let text = parsedDocs.get(key);
  if (text === undefined) {
    text = JSON.stringify(files.map((f): [string, unknown] => [f.slice(0, -'.yaml'.length), parse(readFileSync(join(dir, f), 'utf8'))]));
    parsedDocs.set(key, text);
  }
  return new Map(JSON.parse(text) as Array<[string, OpenApiDoc]>);
}

function resolveParam(doc: OpenApiDoc, p: ParameterObject): ParameterObject {
  if (!p.$ref) return p;
  const name = p.$ref.split('/').pop() ?? '';
  const params = (doc.components?.parameters ?? {}) as Record<string, ParameterObject>;
  return params[name] ?? p;
}

export function listOperations(doc: OpenApiDoc): OperationInfo[] {
  const ops: OperationInfo[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const security = op.security ?? doc.security ?? [];
      const auth = [
        ...new Set(
          security.flatMap((req) =>
            Object.keys(req)
              .map((s) => SCHEME_MODE[s])
              .filter((m): m is AuthMode => !!m),
          ),
        ),
      ];
      const params = (op.parameters ?? []).map((p) => resolveParam(doc, p));
      // A wallet app's id is declared as an `App-Id` header beside `Api-Key`, not as a scheme (spec/main.tsp).
      if (params.some((p) => p.in === 'header' && p.name === 'App-Id')) auth.push('app');
      const idem = params.find((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key');
      ops.push({
        operationId: op.operationId,
        method,
        path,
        expressPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        auth,
        legacyKeyHeader: security.some((req) => 'LegacyPartnerApiKey' in req),
        // SDKs send a key with reads too: accepted, but a read is neither stored nor replayed.
        idempotency: idem && method !== 'get' ? (idem.required ? 'required' : 'optional') : 'none',
        deprecated: (op as { deprecated?: boolean }).deprecated === true,
        headerParams: params.filter((p) => p.in === 'header' && p.name).map((p) => p.name!.toLowerCase()),
      });
    }
  }
  return ops;
}

export interface RouteMatch {
  operation?: OperationInfo;
  /** Path parameters by name, URL-decoded. */
  params?: Record<string, string>;
  /** True when the path exists but not with this method. */
  methodMismatch: boolean;
}

/** Matches a request to an operation; more literal paths win over templated ones. */
export function createRouteTable(ops: OperationInfo[]): (method: string, path: string) => RouteMatch {
  const routes = ops
    .map((op) => ({
      op,
      literalChars: op.path.replace(/\{[^}]+\}/g, '').length,
      regex: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => `(?<${name.replace(/\W/g, '_')}>[^/]+)`)}/?$`),
      names: [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
    }))
    .sort((a, b) => b.literalChars - a.literalChars);
  // A template parameter matches exactly one segment, so only routes with as many segments as
  // the request's path can match it: the table tests a handful of patterns, not all of them.
  const segments = (path: string) => path.replace(/\/+$/, '').split('/').length;
  const bySegments = new Map<number, typeof routes>();
  for (const r of routes) {
    const n = segments(r.op.path);
    bySegments.set(n, [...(bySegments.get(n) ?? []), r]);
  }
  return (method, path) => {
    const m = method.toLowerCase();
    const onPath = (bySegments.get(segments(path)) ?? []).filter((r) => r.regex.test(path));
    const hit = onPath.find((r) => r.op.method === m);
    if (!hit) return { methodMismatch: onPath.length > 0 };
    const groups = hit.regex.exec(path)?.groups ?? {};
    const params: Record<string, string> = {};
    for (const name of hit.names) {
      const raw = groups[name.replace(/\W/g, '_')] ?? '';
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        params[name] = raw;
      }
    }
    return { operation: hit.op, params, methodMismatch: false };
  };
}
