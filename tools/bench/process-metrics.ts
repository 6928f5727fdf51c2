/**
 * What a bench reads of a service process from its own `/metrics` (prom-client's process
 * metrics): event-loop delay, garbage collections and CPU time, so benches observe the process
 * as shipped instead of through hooks of their own.
 */

/** The sum of every series of `name` in Prometheus text (all label sets), NaN when absent. */
export function metricSum(text: string, name: string): number {
  let sum = NaN;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== ' ' && line[name.length] !== '{')) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    sum = Number.isNaN(sum) ? value : sum + value;
  }
  return sum;
}

export interface ProcessWindow {
  /** Event-loop delay since the previous scrape (prom-client resets its histogram per scrape), ms. */
  loopP50Ms: number;
  loopP99Ms: number;
  loopMaxMs: number;
  /** CPU time the process used over the window, as a share of one core's wall time, %. */
  cpuPercent: number;
  gcs: number;
  gcMs: number;
}

/**
 * A window over a process's metrics: `start()` scrapes (which resets the event-loop histogram),
 * `end()` scrapes again and answers what happened in between.
 */
export function processWindow(scrape: () => Promise<string>): { start(): Promise<void>; end(): Promise<ProcessWindow> } {
  let first = '';
  let startedAt = 0;
  const ms = (s: number) => Math.round(s * 1e4) / 10;
  return {
    async start() {
      first = await scrape();
      startedAt = performance.now();
    },
    async end() {
      const last = await scrape();
      const wallS = (performance.now() - startedAt) / 1000;
      // A histogram with labels has no series until its first observation (no GC yet): 0 then.
      const sum = (text: string, name: string) => metricSum(text, name) || 0;
      const delta = (name: string) => sum(last, name) - sum(first, name);
      return {
        loopP50Ms: ms(metricSum(last, 'nodejs_eventloop_lag_p50_seconds')),
        loopP99Ms: ms(metricSum(last, 'nodejs_eventloop_lag_p99_seconds')),
        loopMaxMs: ms(metricSum(last, 'nodejs_eventloop_lag_max_seconds')),
        cpuPercent: Math.round((100 * delta('process_cpu_seconds_total')) / wallS),
        gcs: delta('nodejs_gc_duration_seconds_count'),
        gcMs: Math.round(delta('nodejs_gc_duration_seconds_sum') * 1000),
      };
    },
  };
}
