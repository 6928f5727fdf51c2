import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = import.meta.dirname;
/** Modules allowed to import the chain libraries: the opt-in adapter entry points. */
const ADAPTERS = new Set(['ethers.ts', 'solana.ts', 'signers/ethers-wallet-signer.ts', 'signers/evm-typed-data.ts', 'signers/solana-signers.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('portability of the SDK sources', () => {
  const files = sourceFiles(root).map((path) => ({ name: relative(root, path), text: readFileSync(path, 'utf8') }));

  it('finds the sources it checks', () => {
    expect(files.map((f) => f.name)).toContain('index.ts');
    expect(files.length).toBeGreaterThan(20);
  });

  it('uses no Node-only modules or globals anywhere outside tests', () => {
    for (const { name, text } of files) {
      expect(text, name).not.toMatch(/(from|import)\s*\(?\s*['"](node:|(fs|path|https?|crypto|buffer|net)['"/])/);
      expect(text, name).not.toMatch(/\b(Buffer|process|require)\s*[.(]/);
    }
  });

  it('keeps ethers and @solana/web3.js out of the core', () => {
    for (const { name, text } of files.filter((f) => !ADAPTERS.has(f.name))) {
      expect(text, name).not.toMatch(/(from|import)\s*\(?\s*['"](ethers['"/]|@solana\/)/);
      for (const adapter of ADAPTERS) {
        const stem = adapter.replace(/^signers\//, '');
        expect(text, `${name} imports ${adapter}`).not.toContain(`/${stem}'`);
      }
    }
  });
});
