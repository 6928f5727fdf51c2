/**
 * Summarises a V8 CPU profile (`node --cpu-prof`) of the API process by where each sampled
 * moment's time belongs: the innermost frame of the project's own code (a middleware file, a
 * handler, an adapter) owns it with everything it called, so a row is what that step cost with
 * the libraries it used. Samples with no project frame on their stack belong to the library or
 * node internals running them (pg parsing a reply, node's HTTP parser, ioredis), or to V8's own
 * (garbage collector), (idle) and (program).
 */
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileRow {
  /** A project file (`server/http/auth.ts`), a package (`pg`), `node:internals`, or V8's own `(garbage collector)`, `(idle)`, `(program)`. */
  owner: string;
  ms: number;
}

/** Who owns one frame: its project file, its package under node_modules, node's internals, or null (unknown). */
function ownerOfFrame(url: string, root: string): { owner: string; project: boolean } | null {
  if (!url) return null;
  if (url.startsWith('node:')) return { owner: 'node:internals', project: false };
  let path = url;
  try {
    if (url.startsWith('file:')) path = fileURLToPath(url);
  } catch {
    return null;
  }
  const rel = relative(root, path).split(sep).join('/');
  const inModules = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(rel);
  if (inModules) return { owner: inModules[1]!, project: false };
  if (rel.startsWith('..')) return null;
  return { owner: rel, project: true };
}

/**
 * Time per owner, most first; `root`: the project's directory (frames' files are relative to it);
 * `window`: only the samples between these times, in ms since the profile started (the load, not
 * the process's start-up and shutdown).
 */
export function summariseCpuProfile(profile: CpuProfile, root: string, window?: { fromMs: number; toMs: number }): ProfileRow[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ownerCache = new Map<number, string>();
  const ownerOf = (id: number): string => {
    const cached = ownerCache.get(id);
    if (cached) return cached;
    // The innermost project frame; failing that, the leaf's own library or V8 category.
    let leaf: string | null = null;
    let owner: string | null = null;
    for (let at: number | undefined = id; at !== undefined && owner === null; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const o = ownerOfFrame(frame.url, root);
      if (o?.project) owner = o.owner;
      else leaf ??= o?.owner ?? (/^\(.*\)$/.test(frame.functionName) && frame.functionName !== '(root)' ? frame.functionName : null);
    }
    const found = owner ?? leaf ?? '(unattributed)';
    ownerCache.set(id, found);
    return found;
  };
  const totals = new Map<string, number>();
  let atUs = 0;
  profile.samples.forEach((id, i) => {
    atUs += profile.timeDeltas[i] ?? 0;
    if (window && (atUs < window.fromMs * 1000 || atUs > window.toMs * 1000)) return;
    // A sample's time is the delta to the next one: what the profiler measured it stood for.
    const us = profile.timeDeltas[i + 1] ?? 0;
    const owner = ownerOf(id);
    totals.set(owner, (totals.get(owner) ?? 0) + us / 1000);
  });
  return [...totals].map(([owner, ms]) => ({ owner, ms })).sort((a, b) => b.ms - a.ms);
}
