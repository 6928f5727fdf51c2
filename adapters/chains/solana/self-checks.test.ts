// The Solana self-checks on the sandbox cluster: a mint configured with decimals it does not have is
// reported and never offered (transferChecked would be refused for every payment); the node's head passes.
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { createSolanaSandbox } from '../../sandbox/solana/index.ts';
import { createAssetRegistry, type AssetInfo } from '../../../server/domain/assets.ts';
import type { OptionRequest } from '../../../server/ports/chains.ts';
import { createSolanaChainAdapter } from './gateway-adapter.ts';

describe('Solana self-checks on the sandbox cluster', () => {
  const sandbox = createSolanaSandbox();
  const merchant = sandbox.keypair('selfcheck-merchant').publicKey.toBase58();
  sandbox.openTokenAccount(merchant);
  const a = sandbox.assets[0]!;
  const asset = (decimals: number): AssetInfo =>
    createAssetRegistry([{ id: a.caip19, symbol: a.symbol, name: a.name, decimals, flows: ['spl'], networkName: 'Sandbox Solana' }]).get(a.caip19)!;
  const request = (as: AssetInfo): OptionRequest => ({
    paymentId: 'pay_selfcheck',
    optionId: 'opt_selfcheck',
    account: `${sandbox.caip2}:${Keypair.generate().publicKey.toBase58()}`,
    asset: as,
    amount: 1_000_000n,
    destination: `${sandbox.caip2}:${merchant}`,
    deadline: new Date(Date.now() + 60_000),
    quotedAt: new Date(),
  });
  const port = () => createSolanaChainAdapter([{ caip2: sandbox.caip2, connection: sandbox.connection, feePayer: sandbox.feePayer }]);

  it('as configured: the mint and the node pass, and the asset is offered', async () => {
    const p = port();
    const checks = await p.selfCheck!([asset(a.decimals)]);
    expect(checks.map((c) => [c.subject, c.outcome])).toEqual([
      [`token ${a.symbol}`, 'pass'],
      ['head node', 'pass'],
    ]);
    expect(await p.prepareOption(request(asset(a.decimals)))).not.toHaveProperty('unavailable');
  });

  it('wrong decimals: reported, and no option (before the check an option was offered and every payment would fail)', async () => {
    const p = port();
    const wrong = asset(a.decimals + 3);
    const answer = await p.prepareOption(request(wrong));
    expect(answer).toEqual({ unavailable: expect.stringMatching(new RegExp(`has ${a.decimals} decimals, configured ${a.decimals + 3}: every amount would be off by 10\\^3`)) });
    const [check] = await p.selfCheck!([wrong]);
    expect(check).toMatchObject({ subject: `token ${a.symbol}`, outcome: 'fail', detail: expect.stringMatching(/configured \d+: .*is not offered$/) });
  });
});
