// A hostile buyer in the chain fault suite's load (issue 29 item 8, "a buyer broadcasting failing
// transactions"): beside the honest load, buyers land transactions that fail on purpose, each for a
// payment of their own merchant, and confirm what cannot pay:
// - EVM: the option's EIP-3009 `transferWithAuthorization` signed by another key, sent straight to
//   the token by the buyer with a fixed gas limit (it lands and reverts, the buyer pays its gas),
//   then confirmed with that bad signature (the service must refuse it and send nothing);
// - Solana (hostile-solana-buyer.ts): the gateway's build short of USDC or modified, landed alone
//   with skipPreflight and confirmed; Solana Pay requests short of USDC.
// The EVM row: the service's relayer spent nothing on them (no relayer transaction recorded for
// those payments, which the relayer does before any broadcast), no confirm was accepted, none of
// those payments succeeded, and the failing transactions really landed (else the row proves
// nothing). The Solana row is the fee payer's. The rest of the table is the others.
import { Keypair } from '@solana/web3.js';
import { Contract, JsonRpcProvider, Signature, Wallet } from 'ethers';
import type pg from 'pg';
import { createSandboxApi, type SandboxInfo } from '../demo-wallet/sandbox-api.ts';
import type { Api } from './api.ts';
import type { Row } from './checks.ts';
import { startSolanaHostile } from './hostile-solana-buyer.ts';

const ROUNDS = 3;
const GAS_MONEY = 10n ** 17n;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface HostileSetup {
  api: Api;
  partnerKey: string;
  walletKey: string;
  chainsUrl: string;
  sandbox: SandboxInfo;
  /** The service's Solana fee payer (base58). */
  feePayer: string;
}

type Option = { id: string; amount: { unit: string; value: string }; actions: Array<{ data?: { method?: string; params?: unknown[] } }> };

/** Starts the hostile buyer now; answers what to check after the drain. */
export async function startHostileBuyer(s: HostileSetup): Promise<{ done: Promise<void>; rows(db: pg.Client): Promise<Row[]> }> {
  const usdc = s.sandbox.assets.find((a) => a.caip19.startsWith('eip155:') && a.flows.includes('eip3009'));
  const spl = s.sandbox.assets.find((a) => a.caip19.startsWith('solana:') && a.flows.includes('spl'));
  if (!usdc || !spl) throw new Error('GET /sandbox lists no EIP-3009 or SPL asset');
  const provider = new JsonRpcProvider(`${s.chainsUrl}/evm`, undefined, { staticNetwork: true, polling: true, pollingInterval: 250 });
  const faucet = createSandboxApi(s.chainsUrl);
  const m = await s.api.call(
    'POST',
    '/v1/merchants',
    s.partnerKey,
    { merchantName: 'Hostile Buyer Shop', merchantEmail: 'hostile@faults.test' },
    { 'Idempotency-Key': 'faults-hostile-merchant' },
  );
  if (m.status !== 201) throw new Error(`hostile merchant: ${m.status}`);
  const merchantId = (m.body as { merchant: { id: string } }).merchant.id;
  // A Solana destination is payable once its token account exists: the merchant's wallet holds one base unit.
  const solanaDestination = `${spl.caip19.split('/')[0]}:${Keypair.generate().publicKey.toBase58()}`;
  await faucet.fund(solanaDestination, spl.caip19, 1n);
  const settled = await s.api.call(
    'POST',
    `/v1/merchants/${merchantId}/settlements/crypto`,
    s.partnerKey,
    {
      settlements: [
        { asset: usdc.caip19, destination: `${usdc.caip19.split('/')[0]}:${Wallet.createRandom().address}` },
        { asset: spl.caip19, destination: solanaDestination },
      ],
    },
    { 'Idempotency-Key': 'faults-hostile-settle' },
  );
  if (settled.status !== 201) throw new Error(`hostile settlements: ${settled.status}`);

  const buyer = Wallet.createRandom().connect(provider);
  const impostor = Wallet.createRandom();
  await faucet.fund(`${usdc.caip19.split('/')[0]}:${buyer.address}`, usdc.caip19, 10_000_000n);
  await faucet.fund(`${usdc.caip19.split('/')[0]}:${buyer.address}`, null, GAS_MONEY);

  const payments: string[] = [];
  const evmTxs: string[] = [];
  const errors: string[] = [];
  const confirmsAccepted: string[] = [];
  /** A payment of the hostile merchant; n names it (EVM rounds 0…, Solana 100… and 1000…). */
  const create = async (n: number) => {
    const body = { amount: { unit: 'iso4217/USD', value: '123' }, referenceId: `hostile-${n}`, expiresAt: Math.floor(Date.now() / 1000) + 40 };
    const r = await s.api.call('POST', '/v1/payments', s.partnerKey, body, { 'Merchant-Id': merchantId, 'Idempotency-Key': `faults-hostile-${n}` });
    if (r.status !== 201) throw new Error(`create: ${r.status}`);
    return (r.body as { paymentId: string }).paymentId;
  };
  const newPayment = async (n: number) => {
    const id = await create(n);
    payments.push(id);
    return id;
  };

  const solana = startSolanaHostile({ api: s.api, walletKey: s.walletKey, chainsUrl: s.chainsUrl, sandbox: s.sandbox, feePayer: s.feePayer, newPayment: create });

  const evmRound = async (n: number) => {
    const id = await newPayment(n);
    const account = `${usdc.caip19.split('/')[0]}:${buyer.address}`;
    const offer = await s.api.call('POST', `/v1/gateway/payment/${id}/options`, s.walletKey, { accounts: [account] });
    const option = ((offer.body as { options?: Option[] } | null)?.options ?? []).find((o) => o.amount.unit === `caip19/${usdc.caip19}`);
    const sign = option?.actions.find((a) => a.data?.method === 'eth_signTypedData_v4');
    if (!option || !sign) throw new Error(`no EIP-3009 option (${offer.status})`);
    const typed = JSON.parse(String(sign.data!.params![1])) as {
      domain: Record<string, unknown>;
      types: Record<string, Array<{ name: string; type: string }>>;
      message: Record<string, string>;
    };
    const { EIP712Domain: _domain, ...types } = typed.types;
    const bad = Signature.from(await impostor.signTypedData(typed.domain, types, typed.message));
    const m = typed.message;
    const abi = ['function transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)'];
    const token = new Contract(usdc.caip19.split(':').at(-1)!, abi, buyer);
    // A fixed gas limit: no estimate refuses it, so it lands and reverts, as a hostile buyer's own broadcast would.
    const sent = (await token
      .getFunction('transferWithAuthorization')
      .send(m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, bad.v, bad.r, bad.s, { gasLimit: 120_000 })) as {
      hash: string;
    };
    // Its receipt read by hand: ethers' wait() throws on the revert this is for, and keeps polling after.
    for (let i = 0; i < 60 && !(await provider.getTransactionReceipt(sent.hash).catch(() => null)); i++) await sleep(500);
    evmTxs.push(sent.hash);
    const confirm = await s.api.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=0`, s.walletKey, {
      optionId: option.id,
      results: [{ type: 'walletRpc', data: [bad.serialized] }],
    });
    if (confirm.status < 400) confirmsAccepted.push(id);
  };

  const attempt = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (err) {
      errors.push(err instanceof Error ? err.message.slice(0, 160) : String(err));
    }
  };
  const done = (async () => {
    for (let n = 0; n < ROUNDS; n++) {
      await attempt(() => evmRound(n));
      await attempt(() => solana.round(n));
      await sleep(10_000);
    }
  })();

  return {
    done,
    async rows(db) {
      const receipts = await Promise.all(evmTxs.map((h) => provider.getTransactionReceipt(h).catch(() => null))).finally(() => provider.destroy());
      const reverted = receipts.filter((x) => x && x.status === 0).length;
      const r = await db.query<{ paid: string; relayed: string }>(
        "SELECT count(*) FILTER (WHERE status = 'succeeded') AS paid, count(*) FILTER (WHERE tx_id IS NOT NULL) AS relayed FROM payments WHERE id = ANY($1)",
        [payments],
      );
      const paid = Number(r.rows[0]!.paid);
      const relayed = Number(r.rows[0]!.relayed);
      const ok = reverted > 0 && paid === 0 && relayed === 0 && confirmsAccepted.length === 0;
      return [
        {
          check: 'a buyer broadcasting failing transactions (its EIP-3009 authorization with a bad signature, sent itself, then confirmed): the relayer spends nothing on them',
          expected: 'reverted > 0; relayer transactions, confirms accepted, paid: 0',
          actual:
            `reverted ${reverted}/${evmTxs.length}; relayer ${relayed}, ` +
            `confirms accepted ${confirmsAccepted.length}, paid ${paid}${errors.length ? `; ${errors.slice(0, 2).join('; ')}` : ''}`,
          ok,
        },
        ...(await solana.rows(db)),
      ];
    },
  };
}
