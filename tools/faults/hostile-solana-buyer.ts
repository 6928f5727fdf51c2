// The Solana half of the chain fault suite's hostile buyer (issue 29 item 8, "a buyer broadcasting
// failing transactions"): what a buyer with only a wallet can try through the gateway to make the
// service's fee payer pay for a transaction that pays nobody.
// - Gateway, short of USDC (none, or one base unit less than the amount): it fetches the build,
//   signs it, lands it itself with skipPreflight (the chain must refuse it: the fee payer has not
//   signed), then confirms it (the service verifies, simulates, and must refuse it).
// - Gateway, a modified transaction: fully funded, it signs the build with the transfer's amount
//   rewritten to 1 base unit, tries to land it, then confirms it (the service must refuse it).
// - Solana Pay: the transaction request (POST {account}, served on the suite's plain-http pay URL
//   although the page offers no link there), which a wallet signs and lands itself: short of USDC
//   it must be refused (see solanaPayRound for why a funded request is not made here).
// The rows: the fee payer's transactions naming those buyers (read from the chain's own node) 0,
// so the lamports it spent on them 0; confirms accepted 0; payments paid 0; and what was
// attempted > 0, so the row cannot pass by doing nothing.
import { Keypair, VersionedMessage, VersionedTransaction } from '@solana/web3.js';
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type pg from 'pg';
import { createGatewayClient, resolveBuildActions } from '../../clients/wallet/src/index.ts';
import { base58Decode, base58Encode } from '../../adapters/chains/solana/base58.ts';
import { httpUpstream } from '../chain-faults/index.ts';
import { createSandboxApi, type SandboxInfo } from '../demo-wallet/sandbox-api.ts';
import type { Api } from './api.ts';
import type { Row } from './checks.ts';

/** The SPL Token program's `TransferChecked` instruction tag: [12, amount u64 LE, decimals u8]. */
const TRANSFER_CHECKED = 12;

export interface SolanaHostileSetup {
  api: Api;
  walletKey: string;
  chainsUrl: string;
  sandbox: SandboxInfo;
  /** The service's fee payer (base58): the account a hostile buyer wants to spend. */
  feePayer: string;
  /** Creates a payment of the hostile merchant (which has a Solana settlement), answers its id. */
  newPayment(n: number): Promise<string>;
}

type Variant = 'none' | 'short' | 'modified';

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const answer = await httpUpstream(url)(method, params);
  if ('error' in answer) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

/**
 * The same transaction with its `TransferChecked` amount rewritten: a buyer paying less than quoted.
 * A legacy message's `compiledInstructions` is a copy made on each read, so its `instructions`
 * (data in base58) are the ones rewritten; throws when the message did not change, so an attack
 * that silently did nothing cannot pass for one the service refused.
 */
export function withAmount(transactionBase64: string, amount: bigint): VersionedTransaction {
  const original = VersionedTransaction.deserialize(Buffer.from(transactionBase64, 'base64')).message;
  const message = VersionedMessage.deserialize(original.serialize());
  const keys = message.staticAccountKeys;
  const isTransfer = (programIdIndex: number, data: Uint8Array) => keys[programIdIndex]?.equals(TOKEN_PROGRAM_ID) === true && data[0] === TRANSFER_CHECKED;
  const rewrite = (data: Uint8Array) => {
    const bytes = Buffer.from(data);
    bytes.writeBigUInt64LE(amount, 1);
    return bytes;
  };
  if (message.version === 'legacy') {
    const ix = message.instructions.find((i) => isTransfer(i.programIdIndex, base58Decode(i.data)));
    if (!ix) throw new Error('the build has no TransferChecked instruction');
    ix.data = base58Encode(rewrite(base58Decode(ix.data)));
  } else {
    const ix = message.compiledInstructions.find((i) => isTransfer(i.programIdIndex, i.data));
    if (!ix) throw new Error('the build has no TransferChecked instruction');
    ix.data = rewrite(ix.data);
  }
  if (Buffer.from(message.serialize()).equals(Buffer.from(original.serialize()))) throw new Error('the rewritten build is the same message');
  return new VersionedTransaction(message);
}

export function startSolanaHostile(s: SolanaHostileSetup) {
  const chain = s.sandbox.chains.find((c) => c.namespace === 'solana');
  const usdc = s.sandbox.assets.find((a) => a.caip19.startsWith('solana:') && a.flows.includes('spl'));
  if (!chain || !usdc) throw new Error('GET /sandbox lists no Solana chain with an SPL asset');
  const solanaUrl = `${s.chainsUrl}/solana`;
  const faucet = createSandboxApi(s.chainsUrl);
  const client = createGatewayClient({ baseUrl: s.api.bases[0]!, apiKey: s.walletKey }, { fetch: s.api.fetch });
  const buyers: string[] = [];
  const payments: string[] = [];
  const tally = { broadcasts: 0, broadcastsLanded: 0, confirms: 0, confirmsAccepted: 0, payRequests: 0, payShortAnswered: 0 };

  /** The buyer's own broadcast, straight to the chain with skipPreflight: answers whether the node took it. */
  const broadcast = async (tx: VersionedTransaction) => {
    tally.broadcasts++;
    const wire = Buffer.from(tx.serialize()).toString('base64');
    const sent = await httpUpstream(solanaUrl)('sendTransaction', [wire, { encoding: 'base64', skipPreflight: true }]);
    if ('result' in sent) tally.broadcastsLanded++;
  };

  /** Through the gateway: options, fetch, sign (perhaps modified), land it alone, confirm. */
  const gatewayRound = async (n: number, variant: Variant) => {
    const id = await s.newPayment(100 + n);
    payments.push(id);
    const buyer = Keypair.generate();
    buyers.push(buyer.publicKey.toBase58());
    const account = `${chain.caip2}:${buyer.publicKey.toBase58()}`;
    const offer = await client.getOptions(id, { accounts: [account] });
    const option = offer.options.find((o) => o.amount.unit === `caip19/${usdc.caip19}`);
    if (!option) throw new Error(`no Solana option for the hostile buyer (${offer.options.map((o) => o.amount.unit).join(', ')})`);
    const amount = BigInt(option.amount.value);
    if (variant !== 'none') await faucet.fund(account, usdc.caip19, variant === 'short' ? amount - 1n : amount);
    const actions = await resolveBuildActions(option.actions, (build) => client.fetchAction(id, { optionId: option.id, data: build.build.data }));
    const sign = actions.find((a) => a.walletRpc.method === 'solana_signTransaction');
    const built = sign ? (JSON.parse(sign.walletRpc.params) as [{ transaction?: string }])[0]?.transaction : undefined;
    if (!built) throw new Error('the fetched Solana action has no transaction');
    const tx = variant === 'modified' ? withAmount(built, 1n) : VersionedTransaction.deserialize(Buffer.from(built, 'base64'));
    tx.sign([buyer]);
    await broadcast(tx);
    tally.confirms++;
    const confirm = await s.api.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=0`, s.walletKey, {
      optionId: option.id,
      results: [{ type: 'walletRpc', data: [Buffer.from(tx.serialize()).toString('base64')] }],
    });
    if (confirm.status < 400) tally.confirmsAccepted++;
  };

  /**
   * Solana Pay: a transaction request (POST {account}) from a buyer short of USDC: a transaction
   * would only fail on chain, so none may be handed out. A funded buyer's request is not made here:
   * the build it hands out is watched until its blockhash can no longer land (150 slots, 2.5 min
   * at the suite's slot a second, plus finality), past the drain; transaction-request.test.ts lands
   * such builds (no SOL, drained after the request) against the fee payer.
   */
  const solanaPayRound = async (n: number, short: bigint) => {
    const id = await s.newPayment(n);
    payments.push(id);
    const buyer = Keypair.generate();
    buyers.push(buyer.publicKey.toBase58());
    if (short > 0n) await faucet.fund(`${chain.caip2}:${buyer.publicKey.toBase58()}`, usdc.caip19, short);
    tally.payRequests++;
    const answer = await s.api.call('POST', `/pay/${id}/solana-pay?asset=${encodeURIComponent(usdc.caip19)}`, '', { account: buyer.publicKey.toBase58() });
    if (answer.status < 400) tally.payShortAnswered++;
  };

  return {
    payments,
    /** One round of each kind, n numbering the payments. */
    async round(n: number): Promise<void> {
      const variants: Variant[] = ['none', 'short', 'modified'];
      await gatewayRound(n, variants[n % variants.length]!);
      // No USDC, then one base unit (the amount is over a million).
      await solanaPayRound(1000 + n, n % 2 === 0 ? 0n : 1n);
    },
    async rows(db: pg.Client): Promise<Row[]> {
      // The fee payer's landed transactions (any outcome) that name a hostile buyer: each cost it at least 5,000 lamports.
      const byFeePayer = (await rpc(solanaUrl, 'getSignaturesForAddress', [s.feePayer, { limit: 1000, commitment: 'confirmed' }])) as Array<{ signature: string }>;
      const mine = new Set(byFeePayer.map((x) => x.signature));
      let charged = 0;
      for (const b of buyers) {
        const named = (await rpc(solanaUrl, 'getSignaturesForAddress', [b, { limit: 1000, commitment: 'confirmed' }])) as Array<{ signature: string }>;
        charged += named.filter((x) => mine.has(x.signature)).length;
      }
      const r = await db.query<{ paid: string }>("SELECT count(*) FILTER (WHERE status = 'succeeded') AS paid FROM payments WHERE id = ANY($1)", [payments]);
      const paid = Number(r.rows[0]!.paid);
      const attempted = tally.broadcasts + tally.confirms + tally.payRequests;
      const ok = attempted > 0 && charged === 0 && tally.confirmsAccepted === 0 && paid === 0 && tally.payShortAnswered === 0;
      return [
        {
          check:
            'a Solana buyer broadcasting failing transactions (short of USDC or a modified build, landed alone with skipPreflight, then confirmed; Solana Pay requests short of USDC): the fee payer spends nothing on them',
          expected: 'attempted > 0; fee-payer transactions (lamports) on them, confirms accepted, paid, Solana Pay transactions handed out short of USDC: 0',
          actual:
            `attempted ${attempted} (own broadcasts ${tally.broadcasts}, taken by the node ${tally.broadcastsLanded}; confirms ${tally.confirms}; Solana Pay requests ${tally.payRequests}); ` +
            `fee-payer transactions ${charged} (${charged * 5000} lamports at least), confirms accepted ${tally.confirmsAccepted}, paid ${paid}, Solana Pay transactions handed out ${tally.payShortAnswered}`,
          ok,
        },
      ];
    },
  };
}
