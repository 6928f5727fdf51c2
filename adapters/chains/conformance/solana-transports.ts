// Long because: the Solana harness is one fixture on two transports (the cluster, the faults, a wallet that signs and tampers), and its parts share that cluster.
// The chain port conformance harness for the Solana adapter, on either transport: the in-process
// sandbox (LiteSVM behind the `SolanaRpc` embedded mode gives the adapter), or JSON-RPC over HTTP
// through the fault proxy to the standalone sandbox chains this test worker shares (the production
// wiring, web3.js's Connection from configuration). Either way the adapter's node answers through
// the fault engine; held sends wait in it, as in a busy node's queue, until released.
import { randomBytes } from 'node:crypto';
import { Connection, Keypair, PublicKey, SystemProgram, Transaction, VersionedMessage, VersionedTransaction } from '@solana/web3.js';
import { TOKEN_PROGRAM_ID, createAssociatedTokenAccountIdempotentInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import type { Submission, WireAction } from '../../../server/ports/chains.ts';
import { inProcessFaults, sharedSandboxChains, solanaDev, startRpcFaultProxy, type FaultControl } from '../../../tools/chain-faults/index.ts';
import { createSolanaSandbox } from '../../sandbox/solana/index.ts';
import { sandboxKeypair } from '../../sandbox/solana/keys.ts';
import { parseSolanaSecretKey, solanaChainFromConfig } from '../solana/config.ts';
import { createSolanaChainAdapter, type SolanaChainConfig } from '../solana/gateway-adapter.ts';
import type { SolanaRpc } from '../solana/rpc.ts';
import { rawSign, walletSignVersioned } from '../solana/test-fixtures.ts';
import type { DeclaredFlow } from './chain-port-conformance.ts';
import { nodeFaultHooks, type ChainHarness, type ChainTransport, type ConformanceWallet } from './harness.ts';

export const SOLANA_DECLARED: DeclaredFlow[] = [{ flow: 'spl', submittable: true, walletTransactions: true }];

/** The SPL Token instruction tag of `transferChecked`. */
const TRANSFER_CHECKED = 12;
const MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';

/** The cluster under the harness, whichever transport. */
interface SolanaChain {
  caip2: string;
  mint: PublicKey;
  feePayer: Keypair;
  /** Straight to the cluster (the wallet's own node, other submitters). */
  direct: SolanaRpc;
  /** The adapter's chain config over its faulty node. */
  adapterChain: SolanaChainConfig;
  faults: FaultControl;
  /** Adds lamports (mint null) or mints SPL base units to the owner's token account. */
  fund(owner: string, mint: string | null, value: bigint): Promise<void>;
  balance(owner: string, mint: string | null): Promise<bigint>;
  /** Opens these owners' (empty) token accounts of the mint: only such destinations are payable. */
  openTokenAccounts(owners: string[]): Promise<void>;
  expireBlockhash(): Promise<void>;
  close(): Promise<void>;
}

function inProcessChain(): SolanaChain {
  const sandbox = createSolanaSandbox();
  const faults = inProcessFaults({ solana: sandbox.connection });
  return {
    caip2: sandbox.caip2,
    mint: sandbox.mint,
    feePayer: sandbox.feePayer,
    direct: sandbox.connection,
    adapterChain: { caip2: sandbox.caip2, connection: faults.solana(0), feePayer: sandbox.feePayer },
    faults: faults.control,
    fund: async (owner, mint, value) => sandbox.fund(owner, mint, value),
    balance: async (owner, mint) => sandbox.balance(owner, mint),
    openTokenAccounts: async (owners) => owners.forEach((o) => sandbox.openTokenAccount(o)),
    expireBlockhash: async () => sandbox.expireBlockhash(),
    close: async () => sandbox.close(),
  };
}

async function jsonRpcChain(): Promise<SolanaChain> {
  const chains = await sharedSandboxChains();
  const proxy = await startRpcFaultProxy({ solanaUpstream: chains.solanaUrl, nodes: 1 });
  const caip2 = chains.env.SOLANA_CHAIN_ID!;
  const described = (await (await fetch(`${chains.baseUrl}/sandbox`)).json()) as { assets: Array<{ caip19: string }> };
  const mint = new PublicKey(
    described.assets
      .find((a) => a.caip19.startsWith(`${caip2}/token:`))!
      .caip19.split(':')
      .at(-1)!,
  );
  const account = (owner: string) => `${caip2}:${owner}`;
  const asset = (m: string | null): Record<string, string> => (m === null ? {} : { asset: `${caip2}/token:${m}` });
  return {
    caip2,
    mint,
    feePayer: parseSolanaSecretKey(chains.env.SOLANA_FEE_PAYER_KEY!),
    direct: new Connection(chains.solanaUrl, 'confirmed'),
    adapterChain: solanaChainFromConfig(proxy.solanaUrls[0]!, chains.env.SOLANA_FEE_PAYER_KEY!, caip2),
    faults: proxy,
    async fund(owner, m, value) {
      const res = await fetch(`${chains.baseUrl}/sandbox/faucet`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: account(owner), ...asset(m), value: value.toString() }),
      });
      if (!res.ok) throw new Error(`faucet answered ${res.status}: ${await res.text()}`);
    },
    async balance(owner, m) {
      const query = new URLSearchParams({ account: account(owner), ...asset(m) });
      return BigInt(((await (await fetch(`${chains.baseUrl}/sandbox/balance?${query}`)).json()) as { value: string }).value);
    },
    // The standalone chains' faucet mints only positive amounts: the fee payer's key opens them, as a merchant's wallet would.
    async openTokenAccounts(owners) {
      const payer = parseSolanaSecretKey(chains.env.SOLANA_FEE_PAYER_KEY!);
      const direct = new Connection(chains.solanaUrl, 'confirmed');
      for (let i = 0; i < owners.length; i += 6) {
        const { blockhash } = await direct.getLatestBlockhash();
        const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
          ...owners.slice(i, i + 6).map((o) => {
            const owner = new PublicKey(o);
            return createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, getAssociatedTokenAddressSync(mint, owner, true), owner, mint);
          }),
        );
        tx.sign(payer);
        await direct.sendRawTransaction(tx.serialize());
      }
    },
    expireBlockhash: () => solanaDev(chains.solanaUrl).expireBlockhash(),
    close: () => proxy.close(),
  };
}

/** Opens the Solana adapter's conformance harness on `transport`. */
export async function openSolanaHarness(transport: ChainTransport): Promise<ChainHarness> {
  const chain = transport === 'in-process' ? inProcessChain() : await jsonRpcChain();
  const port = createSolanaChainAdapter([chain.adapterChain]);
  const a = { caip19: `${chain.caip2}/token:${chain.mint.toBase58()}` };
  const asset = createAssetRegistry([{ id: a.caip19, symbol: 'USDC', name: 'USD Coin', decimals: 6, flows: ['spl'], networkName: 'Sandbox Solana' }]).get(a.caip19)!;
  // Fresh keys per harness: the JSON-RPC transport's cluster is shared with this worker's other files.
  const run = randomBytes(4).toString('hex');
  const keypair = (label: string) => sandboxKeypair(`conformance-${run}-${label}`);
  let accounts = 0;
  let offsetMs = 0;
  let holding: (() => void) | null = null;
  const offCurve = PublicKey.findProgramAddressSync([Buffer.from('conformance')], chain.mint)[0].toBase58();
  const nodeConnection = chain.adapterChain.connection;
  // newDestination is synchronous: destinations with their token accounts opened up front.
  const destinations = Array.from({ length: 24 }, (_, i) => keypair(`merchant-${i}`).publicKey.toBase58());
  await chain.openTokenAccounts(destinations);

  return {
    port,
    namespace: 'solana',
    caip2: chain.caip2,
    otherChain: MAINNET,
    broken: {
      // The sandbox's node configured as mainnet: its genesis hash is not mainnet's.
      misnamed: createSolanaChainAdapter([{ caip2: MAINNET, connection: nodeConnection, feePayer: chain.feePayer }]),
      // Port 9 (discard): nothing answers JSON-RPC there.
      unreachable: createSolanaChainAdapter([{ caip2: chain.caip2, connection: new Connection('http://127.0.0.1:9', 'confirmed'), feePayer: chain.feePayer }]),
    },
    // A buyer must sign, so an off-curve (program-derived) address is not one.
    addresses: { valid: [keypair('valid').publicKey.toBase58()], invalid: ['nope', '0x1234567890123456789012345678901234567890', offCurve] },
    flows: [
      {
        flow: 'spl',
        asset,
        walletBroadcasts: false,
        // The wallet holds the signed transaction too, and may send it itself.
        submitElsewhere: async (sub: Submission) => {
          if (sub.flow !== 'spl') throw new Error(`not an SPL submission: ${sub.flow}`);
          return chain.direct.sendRawTransaction(Buffer.from(sub.transaction, 'base64'));
        },
        // Signed by the buyer only, sent past the node's preflight: its fee payer's signature is missing.
        broadcastAlone: (results) =>
          chain.direct.sendRawTransaction(Buffer.from(results[0]!, 'base64'), { skipPreflight: true }).then(
            () => null,
            (err: unknown) => (err instanceof Error ? err.message : String(err)),
          ),
      },
    ],
    now: () => Date.now() + offsetMs,
    passTime: async (ms) => {
      offsetMs += ms;
    },
    // Down by a real transfer out of the fee payer (signed with its key), up by the faucet.
    async setServiceBalance(account, value) {
      const owner = chain.feePayer;
      if (account !== owner.publicKey.toBase58()) throw new Error(`not a service account: ${account}`);
      const excess = (await chain.balance(account, null)) - value;
      if (excess > 0n) {
        const { blockhash } = await chain.direct.getLatestBlockhash();
        const tx = new Transaction({ feePayer: owner.publicKey, recentBlockhash: blockhash }).add(
          SystemProgram.transfer({ fromPubkey: owner.publicKey, toPubkey: keypair('sink').publicKey, lamports: excess }),
        );
        tx.sign(owner);
        await chain.direct.sendRawTransaction(tx.serialize());
      }
      // The transfer's fee took a little more: the faucet gives it back, to the lamport.
      const short = value - (await chain.balance(account, null));
      if (short > 0n) await chain.fund(account, null, short);
    },
    async newBuyer(_flow, amount) {
      const buyer = keypair(`buyer-${++accounts}`);
      await chain.fund(buyer.publicKey.toBase58(), chain.mint.toBase58(), amount);
      const wallet = solanaWallet(buyer, keypair, `${chain.caip2}:${buyer.publicKey.toBase58()}`, amount);
      return {
        ...wallet,
        // A Solana Pay wallet: holds SOL for its own fee, signs as the account, sends.
        async sendWalletTransaction(transaction: string) {
          await chain.fund(buyer.publicKey.toBase58(), null, 10_000_000n);
          const tx = VersionedTransaction.deserialize(Buffer.from(transaction, 'base64'));
          tx.sign([buyer]);
          return chain.direct.sendRawTransaction(tx.serialize());
        },
      };
    },
    newDestination: () => {
      const owner = destinations.pop();
      if (!owner) throw new Error('the harness opened too few destinations: raise their number');
      return `${chain.caip2}:${owner}`;
    },
    balance: (destination) => chain.balance(destination.split(':')[2]!, chain.mint.toBase58()),
    // Every landed transaction is final at once on a cluster without a block clock: nothing to mine.
    mine: async () => {},
    holdBroadcasts: async () => {
      holding ??= chain.faults.set('solana:*', { kind: 'hold-broadcasts' }).clear;
    },
    async releaseBroadcasts() {
      holding?.();
      holding = null;
      await chain.faults.release('solana');
    },
    expire: () => chain.expireBlockhash(),
    faults: {
      ...nodeFaultHooks(chain.faults, 'solana', transport),
    },
    close: () => chain.close(),
  };
}

/** A wallet for `solana_signTransaction`: signs the transaction as given, or misbehaves as asked. */
function solanaWallet(buyer: Keypair, keypair: (label: string) => Keypair, account: string, amount: bigint): ConformanceWallet {
  return {
    account,
    async act(actions: WireAction[], options = {}) {
      const results: string[] = [];
      for (const action of actions) {
        if (action.type !== 'walletRpc' || action.data.method !== 'solana_signTransaction') throw new Error('the wallet runs solana_signTransaction only');
        const { transaction } = action.data.params[0] as { transaction: string };
        if (options.tamper === 'wrong-signer') {
          // Another key's signature in the buyer's slot.
          const tx = VersionedTransaction.deserialize(Buffer.from(transaction, 'base64'));
          const slot = tx.message.staticAccountKeys.findIndex((k) => k.equals(buyer.publicKey));
          tx.signatures[slot] = rawSign(tx.message.serialize(), keypair('intruder'));
          results.push(Buffer.from(tx.serialize()).toString('base64'));
        } else if (options.tamper === 'amount' || options.tamper === 'destination') {
          results.push(tampered(transaction, options.tamper, buyer, keypair, amount));
        } else results.push(walletSignVersioned(transaction, buyer));
      }
      return results;
    },
  };
}

/** The wallet changes the transfer's terms in the message and signs that. */
function tampered(transaction: string, tamper: 'amount' | 'destination', buyer: Keypair, keypair: (label: string) => Keypair, amount: bigint): string {
  let tx = VersionedTransaction.deserialize(Buffer.from(transaction, 'base64'));
  if (tamper === 'amount') {
    // transferChecked's data: its tag, the amount (u64 LE), the decimals.
    const message = Buffer.from(tx.message.serialize());
    const data = Buffer.alloc(10);
    data[0] = TRANSFER_CHECKED;
    data.writeBigUInt64LE(amount, 1);
    data[9] = 6;
    const at = message.indexOf(data);
    if (at < 0) throw new Error('no transferChecked of the amount in the built transaction');
    message.writeBigUInt64LE(amount - 1n, at + 1);
    tx = new VersionedTransaction(VersionedMessage.deserialize(message));
  } else {
    const transfer = tx.message.compiledInstructions.find((ix) => tx.message.staticAccountKeys[ix.programIdIndex]!.equals(TOKEN_PROGRAM_ID) && ix.data[0] === TRANSFER_CHECKED);
    if (!transfer) throw new Error('no transferChecked in the built transaction');
    tx.message.staticAccountKeys[transfer.accountKeyIndexes[2]!] = keypair('elsewhere').publicKey;
  }
  tx.sign([buyer]);
  return Buffer.from(tx.serialize()).toString('base64');
}
