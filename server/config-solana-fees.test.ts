import { Keypair, Transaction, ComputeBudgetInstruction, ComputeBudgetProgram } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SOLANA_FEE_POLICY } from '../adapters/chains/solana/fees.ts';
import { openChains } from './composition/chains.ts';
import { loadConfig } from './config.ts';
import { parseSolanaFeeConfig, solanaFeePolicy, type SolanaFeeConfig } from './config-solana-fees.ts';
import { createAssetRegistry } from './domain/assets.ts';
import { expectOption } from './ports/chains.ts';

const MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const parsed = (raw: unknown): SolanaFeeConfig => {
  const c = parseSolanaFeeConfig({ SOLANA_PRIORITY_FEES: JSON.stringify(raw) });
  if ('problem' in c) throw new Error(c.problem);
  return c;
};
const problem = (raw: string) => {
  const c = parseSolanaFeeConfig({ SOLANA_PRIORITY_FEES: raw });
  return 'problem' in c ? c.problem : null;
};

describe('SOLANA_PRIORITY_FEES: the compute-unit price policy per cluster', () => {
  it('keeps the adapter’s defaults (75th percentile, 1,000 to 1,000,000 µlamports) when unset or for a cluster not named', () => {
    expect(solanaFeePolicy(parsed({}), MAINNET, DEFAULT_SOLANA_FEE_POLICY)).toEqual({ percentile: 75, maxMicroLamports: 1_000_000, minMicroLamports: 1_000 });
    expect(parseSolanaFeeConfig({})).toEqual({ solanaPriorityFees: {} });
    const other = parsed({ 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': { percentile: 50 } });
    expect(solanaFeePolicy(other, MAINNET, DEFAULT_SOLANA_FEE_POLICY)).toEqual(DEFAULT_SOLANA_FEE_POLICY);
  });

  it('overrides any subset per cluster; a floor above the default cap lifts the cap with it, and the reverse', () => {
    const c = parsed({ [MAINNET]: { percentile: 90, maxMicroLamports: 200_000 } });
    expect(solanaFeePolicy(c, MAINNET, DEFAULT_SOLANA_FEE_POLICY)).toEqual({ percentile: 90, maxMicroLamports: 200_000, minMicroLamports: 1_000 });
    expect(solanaFeePolicy(parsed({ [MAINNET]: { minMicroLamports: 2_000_000 } }), MAINNET, DEFAULT_SOLANA_FEE_POLICY)).toMatchObject({
      minMicroLamports: 2_000_000,
      maxMicroLamports: 2_000_000,
    });
    expect(solanaFeePolicy(parsed({ [MAINNET]: { maxMicroLamports: 500 } }), MAINNET, DEFAULT_SOLANA_FEE_POLICY)).toMatchObject({ minMicroLamports: 500, maxMicroLamports: 500 });
  });

  it('refuses what it cannot read, naming the variable and the entry', () => {
    expect(problem('{')).toMatch(/^SOLANA_PRIORITY_FEES is not valid JSON/);
    expect(problem('[]')).toMatch(/must be a JSON object of Solana CAIP-2/);
    expect(problem('{"eip155:1":{}}')).toMatch(/"eip155:1" must be a Solana CAIP-2 chain id/);
    expect(problem(`{"${MAINNET}":{"percentile":0}}`)).toMatch(/percentile must be a whole number from 1 to 100/);
    expect(problem(`{"${MAINNET}":{"percentile":75.5}}`)).toMatch(/percentile/);
    expect(problem(`{"${MAINNET}":{"maxMicroLamports":"1000"}}`)).toMatch(/maxMicroLamports must be a whole number/);
    expect(problem(`{"${MAINNET}":{"maxMicroLamports":100000001}}`)).toMatch(/from 0 to 100000000/);
    expect(problem(`{"${MAINNET}":{"minMicroLamports":5,"maxMicroLamports":4}}`)).toMatch(/minMicroLamports cannot exceed maxMicroLamports/);
    expect(problem(`{"${MAINNET}":{"cap":1}}`)).toMatch(/unknown key cap/);
  });

  it('production refuses an entry for a cluster other than SOLANA_CHAIN_ID (it would never apply)', () => {
    const env = { SERVICE_MODE: 'production', SOLANA_PRIORITY_FEES: JSON.stringify({ 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': { percentile: 50 } }) };
    expect(() => loadConfig(env)).toThrow(/SOLANA_PRIORITY_FEES names solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1, not SOLANA_CHAIN_ID/);
    expect(loadConfig({ ...env, SOLANA_CHAIN_ID: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' }).solanaPriorityFees).toEqual({
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': { percentile: 50 },
    });
  });

  it('reaches the fee payer’s transactions through the composition root: the configured floor prices a quiet network', async () => {
    const microLamportsOf = async (env: NodeJS.ProcessEnv) => {
      const chains = await openChains(loadConfig({ SERVICE_MODE: 'sandbox', ...env }));
      try {
        const config = chains.assets.find((a) => a.id.startsWith('solana:'))!;
        const asset = createAssetRegistry([config]).get(config.id)!;
        const port = chains.ports.find((p) => p.supportsChain(`${asset.parsed.chain.namespace}:${asset.parsed.chain.reference}`))!;
        const chain = `${asset.parsed.chain.namespace}:${asset.parsed.chain.reference}`;
        const now = new Date();
        const req = {
          paymentId: 'pay_fee_config',
          optionId: 'opt_fee_config',
          account: `${chain}:${Keypair.generate().publicKey.toBase58()}`,
          asset,
          amount: 1_000_000n,
          destination: `${chain}:${Keypair.generate().publicKey.toBase58()}`,
          deadline: new Date(now.getTime() + 60_000),
          quotedAt: now,
        };
        const prepared = expectOption(await port.prepareOption(req));
        const { actions } = await port.fetchActions!(req, prepared.state, req.optionId);
        const tx = Transaction.from(Buffer.from((actions[0] as { data: { params: Array<{ transaction: string }> } }).data.params[0]!.transaction, 'base64'));
        const price = tx.instructions.filter((ix) => ix.programId.equals(ComputeBudgetProgram.programId))[1]!;
        return ComputeBudgetInstruction.decodeSetComputeUnitPrice(price).microLamports;
      } finally {
        await chains.close();
      }
    };
    // The sandbox's network reports no recent fees: the floor is the price.
    expect(await microLamportsOf({})).toBe(1_000n);
    expect(await microLamportsOf({ SOLANA_PRIORITY_FEES: JSON.stringify({ 'solana:sandbox': { minMicroLamports: 4_321 } }) })).toBe(4_321n);
  }, 120_000);
});
