// The fault engine in front of the in-process sandboxes, for the in-process transport: the EVM
// adapter gets an EIP-1193 provider per node, the Solana adapter a `SolanaRpc` per node (the shape
// embedded mode gives it), each answering through the same faults as the HTTP proxy's nodes. What
// only HTTP can do (429, 5xx, resets) is refused here; latency and hangs are acted out.
import { PublicKey, SendTransactionError, type AccountInfo } from '@solana/web3.js';
import type { SolanaRpc } from '../../adapters/chains/solana/rpc.ts';
import { answerSolanaRpc } from '../../adapters/sandbox/solana/index.ts';
import { controlOf, type FaultControl } from './control.ts';
import { FaultEngine } from './engine.ts';
import { TRANSPORT_FAULTS, type FaultKind } from './faults.ts';
import type { RpcOutcome, UpstreamCall } from './upstream.ts';

export interface Eip1193 {
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>;
}

export interface InProcessFaults {
  control: FaultControl;
  /** EVM node `node` as an EIP-1193 provider (wrap it in ethers' BrowserProvider). */
  evm(node: number): Eip1193;
  /** Solana node `node` as the `SolanaRpc` the adapter takes. */
  solana(node: number): SolanaRpc;
}

const TIMED: ReadonlySet<FaultKind> = new Set(['latency', 'hang']);
const never = new Promise<never>(() => {});

/** A JSON-RPC error as clients throw it: the message, with the code and data a caller inspects. */
function rpcError(error: { code: number; message: string; data?: unknown }): Error {
  return Object.assign(new Error(error.message), { code: error.code, data: error.data });
}

/**
 * Faults for in-process nodes: `evm` calls the EVM node's JSON-RPC (dev methods allowed, for the
 * dev controls), `solana` is the sandbox's connection.
 */
export function inProcessFaults(nodes: { evm?: UpstreamCall; solana?: SolanaRpc }): InProcessFaults {
  const solanaRpc = nodes.solana;
  const engine = new FaultEngine({
    upstreams: {
      ...(nodes.evm ? { evm: nodes.evm } : {}),
      ...(solanaRpc ? { solana: (method: string, params: unknown[]) => answerSolanaRpc(solanaRpc, method, params) } : {}),
    },
    // In process, the sandbox speaks for itself: its own wording is what the in-process transport tests.
    gethErrors: false,
  });
  const control = controlOf(engine, (fault) => {
    if (TRANSPORT_FAULTS.has(fault.kind)) throw new Error(`${fault.kind} is an HTTP fault: set it on the fault proxy (the JSON-RPC transport)`);
  });

  /** Latency and hangs first, as the HTTP proxy does before answering. */
  async function timed(chain: 'evm' | 'solana', node: number, method: string): Promise<void> {
    for (const rule of engine.matching(chain, node, method, TIMED)) {
      engine.rules.spend(rule);
      if (rule.fault.kind === 'hang') await never;
      if (rule.fault.kind === 'latency') await new Promise((r) => setTimeout(r, rule.fault.kind === 'latency' ? rule.fault.ms : 0));
    }
  }

  async function call(chain: 'evm' | 'solana', node: number, method: string, params: unknown[]): Promise<unknown> {
    await timed(chain, node, method);
    const outcome: RpcOutcome = await engine.answer(chain, node, method, params);
    if ('error' in outcome) throw rpcError(outcome.error);
    return outcome.result;
  }

  return {
    control,
    evm: (node) => ({
      request: ({ method, params }) => call('evm', node, method, Array.isArray(params) ? params : params === undefined ? [] : [params]),
    }),
    solana: (node) => solanaOver((method, params) => call('solana', node, method, params)),
  };
}

type JsonCall = (method: string, params: unknown[]) => Promise<unknown>;

/** A `SolanaRpc` speaking JSON-RPC through `call`, with the request and answer shapes web3.js uses. */
function solanaOver(call: JsonCall): SolanaRpc {
  return {
    async getLatestBlockhash(commitment) {
      return ((await call('getLatestBlockhash', [{ commitment }])) as { value: { blockhash: string; lastValidBlockHeight: number } }).value;
    },
    getBlockHeight: async (commitment) => (await call('getBlockHeight', [{ commitment }])) as number,
    getEpochInfo: async (commitment) => (await call('getEpochInfo', [{ commitment }])) as Awaited<ReturnType<SolanaRpc['getEpochInfo']>>,
    async sendRawTransaction(raw, options) {
      const encoded = Buffer.from(Uint8Array.from(raw)).toString('base64');
      try {
        return (await call('sendTransaction', [encoded, { encoding: 'base64', skipPreflight: options?.skipPreflight === true }])) as string;
      } catch (err) {
        const { message, data } = err as { message: string; data?: { logs?: string[] } };
        throw new SendTransactionError({ action: 'send', signature: '', transactionMessage: message, logs: data?.logs ?? [] });
      }
    },
    getSignatureStatuses: async (signatures, config) => (await call('getSignatureStatuses', [signatures, config ?? {}])) as Awaited<ReturnType<SolanaRpc['getSignatureStatuses']>>,
    async getAccountInfo(publicKey, commitment) {
      const { value } = (await call('getAccountInfo', [publicKey.toBase58(), { encoding: 'base64', commitment }])) as {
        value: { data: [string, string]; owner: string; lamports: number; executable: boolean; rentEpoch: number } | null;
      };
      if (!value) return null;
      const info: AccountInfo<Buffer> = { ...value, data: Buffer.from(value.data[0], 'base64'), owner: new PublicKey(value.owner) };
      return info;
    },
    getSignaturesForAddress: async (address, options, commitment) =>
      (await call('getSignaturesForAddress', [address.toBase58(), { ...options, commitment }])) as Awaited<ReturnType<SolanaRpc['getSignaturesForAddress']>>,
    getGenesisHash: async () => (await call('getGenesisHash', [])) as string,
    simulateTransaction: async (tx, config) =>
      (await call('simulateTransaction', [Buffer.from(tx.serialize()).toString('base64'), { encoding: 'base64', ...config }])) as Awaited<
        ReturnType<SolanaRpc['simulateTransaction']>
      >,
    getRecentPrioritizationFees: async (config) =>
      (await call('getRecentPrioritizationFees', [(config?.lockedWritableAccounts ?? []).map((k) => k.toBase58())])) as Awaited<
        ReturnType<SolanaRpc['getRecentPrioritizationFees']>
      >,
  };
}
