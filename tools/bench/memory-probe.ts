/**
 * Loaded into the API process by the memory bench only (`node --import ./tools/bench/memory-probe.ts`):
 * every 100 ms it reads `process.memoryUsage()` and V8's heap spaces, keeps the reading with the
 * highest RSS, and writes the latest and the highest to MEMORY_PROBE_FILE, so the bench can say
 * where the process's memory is at idle and at its peak (a reading from outside sees only RSS).
 */
import { renameSync, writeFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

/** One reading, in bytes. `newSpace`, `oldSpace`, `codeSpace`, `largeObjects`: committed V8 spaces. */
export interface MemoryReading {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  newSpace: number;
  oldSpace: number;
  codeSpace: number;
  largeObjects: number;
}

/** Garbage collections since start: full (mark-compact) and young-generation ones, count and pause ms. */
export interface GcTotals {
  major: number;
  majorMs: number;
  minor: number;
  minorMs: number;
}

function read(): MemoryReading {
  const m = process.memoryUsage();
  const spaces = { newSpace: 0, oldSpace: 0, codeSpace: 0, largeObjects: 0 };
  for (const s of getHeapSpaceStatistics()) {
    const key = s.space_name === 'new_space' ? 'newSpace' : s.space_name === 'code_space' ? 'codeSpace' : s.space_name.includes('large_object') ? 'largeObjects' : 'oldSpace';
    spaces[key] += s.space_size;
  }
  return { rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, ...spaces };
}

const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  const gc: GcTotals = { major: 0, majorMs: 0, minor: 0, minorMs: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.major++;
        gc.majorMs += e.duration;
      } else if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        gc.minor++;
        gc.minorMs += e.duration;
      }
    }
  }).observe({ entryTypes: ['gc'] });
  let peak = read();
  setInterval(() => {
    const last = read();
    if (last.rss > peak.rss) peak = last;
    // Whole or not at all: the bench may read it at any moment.
    writeFileSync(`${file}.tmp`, JSON.stringify({ last, peak, gc }));
    renameSync(`${file}.tmp`, file);
  }, 100).unref();
}
