// The per-middleware breakdown of a request is read from this summary: if it gave a library's
// time to the wrong owner, the bench would point at the wrong step.
import { describe, expect, it } from 'vitest';
import { summariseCpuProfile, type CpuProfile } from './cpu-profile-summary.ts';

const root = '/repo';
const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url }, children });

describe('CPU profile summary', () => {
  it('gives a sample to the innermost project frame on its stack, with the libraries it called', () => {
    const profile: CpuProfile = {
      nodes: [
        frame(1, '(root)', '', [2, 6, 7, 8]),
        frame(2, 'handle', 'file:///repo/node_modules/express/lib/router.js', [3]),
        frame(3, 'authenticate', 'file:///repo/server/http/auth.ts', [4]),
        frame(4, 'query', 'file:///repo/node_modules/pg/lib/client.js', [5]),
        frame(5, 'write', 'node:net'),
        frame(6, 'parse', 'file:///repo/node_modules/pg-protocol/dist/parser.js'),
        frame(7, '(garbage collector)', ''),
        frame(8, 'observe', 'file:///repo/node_modules/prom-client/lib/histogram.js', [9]),
        frame(9, 'x', 'file:///repo/server/http/metrics.ts'),
      ],
      // Each sample's time is the next delta (µs): 5 ms at auth (via pg and net), 2 in pg-protocol, 3 GC, 6 in metrics (under prom-client's frame).
      startTime: 0,
      samples: [5, 4, 6, 7, 9, 9],
      timeDeltas: [0, 3000, 2000, 2000, 3000, 4000, 2000],
    };
    const rows = summariseCpuProfile(profile, root);
    expect(rows).toEqual([
      { owner: 'server/http/metrics.ts', ms: 6 },
      { owner: 'server/http/auth.ts', ms: 5 },
      { owner: '(garbage collector)', ms: 3 },
      { owner: 'pg-protocol', ms: 2 },
    ]);
  });

  it('names scoped packages whole and node internals as one owner', () => {
    const profile: CpuProfile = {
      nodes: [frame(1, '(root)', '', [2, 3]), frame(2, 'a', 'file:///repo/node_modules/@scope/pkg/x.js'), frame(3, 'b', 'node:internal/http')],
      startTime: 0,
      samples: [2, 3, 3],
      timeDeltas: [0, 2000, 1000, 500],
    };
    expect(summariseCpuProfile(profile, root)).toEqual([
      { owner: '@scope/pkg', ms: 2 },
      { owner: 'node:internals', ms: 1.5 },
    ]);
    // Only the samples taken inside the window (the second, at 2 ms, and the third, at 3 ms).
    expect(summariseCpuProfile(profile, root, { fromMs: 1.5, toMs: 3 })).toEqual([{ owner: 'node:internals', ms: 1.5 }]);
  });
});
