/** Metrics settings from the environment; `problem` names the variable at fault. */
export interface MetricsConfig {
  /** `npm run worker`: the port of its own `GET /metrics` server; absent, a worker serves no metrics. The API serves /metrics on PORT. */
  metricsPort?: number;
  /** A scrape of /metrics must send `Authorization: Bearer <token>`; absent, /metrics answers anyone. */
  metricsToken?: string;
}

/**
 * METRICS_PORT (1–65535) and METRICS_TOKEN (16 to 256 visible ASCII characters: it travels in a
 * header, and a short one could be guessed by a scraper's neighbours).
 */
export function parseMetricsConfig(env: NodeJS.ProcessEnv): MetricsConfig | { problem: string } {
  const out: MetricsConfig = {};
  const port = env.METRICS_PORT;
  if (port !== undefined && port !== '') {
    const n = Number(port);
    if (!/^\d{1,5}$/.test(port) || n < 1 || n > 65535) return { problem: `METRICS_PORT must be an integer from 1 to 65535, got "${port}"` };
    out.metricsPort = n;
  }
  const token = env.METRICS_TOKEN;
  if (token !== undefined && token !== '') {
    if (!/^[\x21-\x7e]{16,256}$/.test(token)) return { problem: 'METRICS_TOKEN must be 16 to 256 visible ASCII characters without spaces (e.g. openssl rand -hex 24)' };
    out.metricsToken = token;
  }
  return out;
}
