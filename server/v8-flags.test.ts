import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_V8_FLAGS } from './v8-flags.ts';

describe('SERVER_V8_FLAGS', () => {
  it('are the flags npm start and npm run worker pass to node, so the benches measure what ships', () => {
    const scripts = (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toBe(['node', ...SERVER_V8_FLAGS, 'server/main.ts'].join(' '));
    expect(scripts.worker).toBe(['node', ...SERVER_V8_FLAGS, 'server/worker.ts'].join(' '));
  });
});
