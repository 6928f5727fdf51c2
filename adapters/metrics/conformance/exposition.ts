/** One sample line of the Prometheus text format: `name{label="value",…} number`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const unescape = (v: string) => v.replace(/\\(n|\\|")/g, (_, c: string) => (c === 'n' ? '\n' : c));

/** Parses the sample lines of an exposition (comments skipped); enough of the format for tests. */
export function parseExposition(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[^"}]|"(?:[^"\\]|\\.)*")*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = unescape(l[2]!);
    const raw = m[3]!;
    out.push({ name: m[1]!, labels, value: raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw) });
  }
  return out;
}

/** The value of the sample with exactly these labels, or undefined. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).sort();
  return samples.find((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === JSON.stringify(want))?.value;
}
