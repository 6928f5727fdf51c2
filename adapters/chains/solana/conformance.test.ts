// The chain port conformance suite on the Solana adapter, against the LiteSVM sandbox: a buyer
// holding USDC and no SOL, a wallet that signs what fetch built, and a node that can hold
// transactions it accepted (a mempool) until told to include them.
import { Connection, PublicKey, SystemProgram, Transaction, VersionedMessage, VersionedTransaction } from '@solana/web3.js';
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import type { Submission, WireAction } from '../../../server/ports/chains.ts';
import { createSolanaSandbox, type SolanaSandbox } from '../../sandbox/solana/index.ts';
import { chainPortConformance, type ChainHarness, type ConformanceWallet } from '../conformance/chain-port-conformance.ts';
import { createSolanaChainAdapter } from './gateway-adapter.ts';
import type { SolanaRpc } from './rpc.ts';
import { rawSign, walletSignVersioned } from './test-fixtures.ts';
import { signatureOf } from './wire.ts';

/** The SPL Token instruction tag of `transferChecked`. */
const TRANSFER_CHECKED = 12;

chainPortConformance('Solana adapter on the sandbox (LiteSVM)', [{ flow: 'spl', submittable: true }], async (): Promise<ChainHarness> => {
  const sandbox = createSolanaSandbox();
  const held = new Map<string, Uint8Array>();
  let holding = false;
  // The sandbox's connection, except that while holding, what is sent waits unseen, as in a busy node's queue.
  const connection: SolanaRpc = {
    getLatestBlockhash: (c) => sandbox.connection.getLatestBlockhash(c),
    getBlockHeight: (c) => sandbox.connection.getBlockHeight(c),
    getGenesisHash: () => sandbox.connection.getGenesisHash(),
    getSignatureStatuses: (s, c) => sandbox.connection.getSignatureStatuses(s, c),
    getAccountInfo: (k, c) => sandbox.connection.getAccountInfo(k, c),
    getSignaturesForAddress: (a, o, c) => sandbox.connection.getSignaturesForAddress(a, o, c),
    async sendRawTransaction(raw, options) {
      if (!holding) return sandbox.connection.sendRawTransaction(raw, options);
      const bytes = Uint8Array.from(raw);
      const signature = signatureOf(Buffer.from(bytes).toString('base64'))!;
      held.set(signature, bytes);
      return signature;
    },
  };
  const port = createSolanaChainAdapter([{ caip2: sandbox.caip2, connection, feePayer: sandbox.feePayer }]);
  const a = sandbox.assets[0]!;
  const asset = createAssetRegistry([{ id: a.caip19, symbol: a.symbol, name: a.name, decimals: a.decimals, flows: ['spl'], networkName: 'Sandbox Solana' }]).get(a.caip19)!;
  let buyers = 0;
  let offsetMs = 0;
  const offCurve = PublicKey.findProgramAddressSync([Buffer.from('conformance')], sandbox.mint)[0].toBase58();

  return {
    port,
    namespace: 'solana',
    caip2: sandbox.caip2,
    otherChain: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    broken: {
      // The sandbox's node configured as mainnet: its genesis hash is not mainnet's.
      misnamed: createSolanaChainAdapter([{ caip2: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', connection, feePayer: sandbox.feePayer }]),
      // Port 9 (discard): nothing answers JSON-RPC there.
      unreachable: createSolanaChainAdapter([{ caip2: sandbox.caip2, connection: new Connection('http://127.0.0.1:9', 'confirmed'), feePayer: sandbox.feePayer }]),
    },
    // A buyer must sign, so an off-curve (program-derived) address is not one.
    addresses: { valid: [sandbox.keypair('conformance-valid').publicKey.toBase58()], invalid: ['nope', '0x1234567890123456789012345678901234567890', offCurve] },
    flows: [
      {
        flow: 'spl',
        asset,
        walletBroadcasts: false,
        // The wallet holds the signed transaction too, and may send it itself.
        submitElsewhere: async (sub: Submission) => {
          if (sub.flow !== 'spl') throw new Error(`not an SPL submission: ${sub.flow}`);
          return sandbox.connection.sendRawTransaction(Buffer.from(sub.transaction, 'base64'));
        },
      },
    ],
    now: () => Date.now() + offsetMs,
    passTime: async (ms) => {
      offsetMs += ms;
    },
    // Down by a real transfer out of the fee payer (signed with its key), up by the faucet.
    async setServiceBalance(account, value) {
      const owner = sandbox.feePayer;
      if (account !== owner.publicKey.toBase58()) throw new Error(`not a service account: ${account}`);
      const excess = sandbox.balance(account, null) - value;
      if (excess > 0n) {
        const { blockhash } = await sandbox.connection.getLatestBlockhash();
        const tx = new Transaction({ feePayer: owner.publicKey, recentBlockhash: blockhash }).add(
          SystemProgram.transfer({ fromPubkey: owner.publicKey, toPubkey: sandbox.keypair('conformance-sink').publicKey, lamports: excess }),
        );
        tx.sign(owner);
        await sandbox.connection.sendRawTransaction(tx.serialize());
      }
      // The transfer's fee took a little more: the faucet gives it back, to the lamport.
      const short = value - sandbox.balance(account, null);
      if (short > 0n) sandbox.fund(account, null, short);
    },
    async newBuyer(_flow, amount) {
      const buyer = sandbox.keypair(`conformance-buyer-${++buyers}`);
      sandbox.fund(buyer.publicKey.toBase58(), sandbox.mint.toBase58(), amount);
      return solanaWallet(sandbox, buyer, `${sandbox.caip2}:${buyer.publicKey.toBase58()}`, amount);
    },
    newDestination: () => `${sandbox.caip2}:${sandbox.keypair(`conformance-merchant-${++buyers}`).publicKey.toBase58()}`,
    balance: async (destination) => sandbox.balance(destination.split(':')[2]!, sandbox.mint.toBase58()),
    // Every landed transaction is final at once in the sandbox: nothing to mine.
    mine: async () => {},
    holdBroadcasts: async () => {
      holding = true;
    },
    async releaseBroadcasts() {
      holding = false;
      for (const raw of held.values()) await sandbox.connection.sendRawTransaction(raw).catch(() => undefined);
      held.clear();
    },
    expire: async () => sandbox.expireBlockhash(),
    close: async () => {},
  };
});

/** A wallet for `solana_signTransaction`: signs the transaction as given, or misbehaves as asked. */
function solanaWallet(sandbox: SolanaSandbox, buyer: ReturnType<SolanaSandbox['keypair']>, account: string, amount: bigint): ConformanceWallet {
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
          tx.signatures[slot] = rawSign(tx.message.serialize(), sandbox.keypair('conformance-intruder'));
          results.push(Buffer.from(tx.serialize()).toString('base64'));
        } else if (options.tamper === 'amount' || options.tamper === 'destination') {
          // The wallet changes the transfer's terms in the message and signs that.
          let tx = VersionedTransaction.deserialize(Buffer.from(transaction, 'base64'));
          if (options.tamper === 'amount') {
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
            const transfer = tx.message.compiledInstructions.find(
              (ix) => tx.message.staticAccountKeys[ix.programIdIndex]!.equals(TOKEN_PROGRAM_ID) && ix.data[0] === TRANSFER_CHECKED,
            );
            if (!transfer) throw new Error('no transferChecked in the built transaction');
            tx.message.staticAccountKeys[transfer.accountKeyIndexes[2]!] = sandbox.keypair('conformance-elsewhere').publicKey;
          }
          tx.sign([buyer]);
          results.push(Buffer.from(tx.serialize()).toString('base64'));
        } else results.push(walletSignVersioned(transaction, buyer));
      }
      return results;
    },
  };
}
