// The in-process EVM node: one EDR provider per sandbox, spoken to in JSON-RPC strings.
import {
  ContractDecoder,
  EdrContext,
  L1_CHAIN_TYPE,
  MineOrdering,
  l1GenesisState,
  l1HardforkFromString,
  l1ProviderFactory,
  type AccountOverride,
  type Provider as EdrProvider,
} from '@nomicfoundation/edr';

/** Hardfork of the sandbox chain; the Solidity we compile targets the matching EVM version. */
export const SANDBOX_HARDFORK = 'prague';

/** JSON-RPC error as the node reports it. */
export type RpcErrorObject = { code: number; message: string; data?: unknown };

/** The node's answer to one request: exactly one of result or error. */
export type RpcOutcome = { result: unknown } | { error: RpcErrorObject };

/** A minimal JSON-RPC node: one method call in, one outcome out. */
export type EvmNode = {
  call(method: string, params: readonly unknown[]): Promise<RpcOutcome>;
};

let contextPromise: Promise<EdrContext> | undefined;

/**
 * EDR allows one context per process ("should only be called once"), so every sandbox in the
 * process shares it; each sandbox still gets its own provider (its own chain state).
 */
function edrContext(): Promise<EdrContext> {
  contextPromise ??= (async () => {
    const context = new EdrContext();
    await context.registerProviderFactory(L1_CHAIN_TYPE, l1ProviderFactory());
    return context;
  })();
  return contextPromise;
}

export type EdrNodeOptions = {
  chainId: bigint;
  /** Accounts present at genesis with their balance (wei). */
  prefunded: readonly { address: string; balance: bigint }[];
};

/**
 * Starts a fresh automining L1 chain. No owned accounts: every transaction is signed by its
 * sender (as on a real chain), so `eth_sendTransaction` on the node cannot spend anyone's funds.
 */
export async function startEdrNode(options: EdrNodeOptions): Promise<EvmNode> {
  const context = await edrContext();
  const hardfork = l1HardforkFromString(SANDBOX_HARDFORK);
  const genesis: AccountOverride[] = [
    ...l1GenesisState(hardfork),
    ...options.prefunded.map((account) => ({
      address: Buffer.from(account.address.slice(2), 'hex'),
      balance: account.balance,
    })),
  ];
  const provider: EdrProvider = await context.createProvider(
    L1_CHAIN_TYPE,
    {
      allowBlocksWithSameTimestamp: true,
      allowUnlimitedContractSize: false,
      bailOnCallFailure: false,
      bailOnTransactionFailure: false,
      chainId: options.chainId,
      coinbase: Buffer.alloc(20),
      defaultTransactionGasLimit: 16_000_000n,
      genesisState: genesis,
      hardfork: SANDBOX_HARDFORK,
      initialBaseFeePerGas: 1_000_000_000n,
      minGasPrice: 0n,
      mining: { autoMine: true, memPool: { order: MineOrdering.Priority } },
      network: { genesisBlockGasLimit: 60_000_000n },
      networkId: options.chainId,
      observability: {},
      ownedAccounts: [],
      precompileOverrides: [],
    },
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} },
    { subscriptionCallback: () => {} },
    new ContractDecoder(),
  );
  let nextId = 1;
  return {
    async call(method, params) {
      const request = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });
      const response = await provider.handleRequest(request);
      const raw: unknown = typeof response.data === 'string' ? JSON.parse(response.data) : response.data;
      return toOutcome(raw);
    },
  };
}

function toOutcome(raw: unknown): RpcOutcome {
  if (typeof raw === 'object' && raw !== null) {
    if ('error' in raw && typeof raw.error === 'object' && raw.error !== null) {
      const error = raw.error as Partial<RpcErrorObject>;
      return {
        error: {
          code: typeof error.code === 'number' ? error.code : -32603,
          message: typeof error.message === 'string' ? error.message : 'Internal error',
          ...(error.data === undefined ? {} : { data: error.data }),
        },
      };
    }
    if ('result' in raw) return { result: raw.result };
  }
  return { error: { code: -32603, message: 'Malformed answer from the EVM node' } };
}
