// OP-stack chains (Base, OP Mainnet) charge every transaction an L1 data fee beside its L2 gas,
// priced by the GasPriceOracle predeploy from the transaction's serialized bytes. The relayer pays
// it: it is part of what a gasless payment costs, and of what the fee meter records.
import { Contract, Transaction, type Provider } from 'ethers';

/** The GasPriceOracle predeploy of every OP-stack chain. */
export const GAS_PRICE_ORACLE = '0x420000000000000000000000000000000000000F';
const ORACLE_ABI = ['function getL1Fee(bytes _data) view returns (uint256)'] as const;

/**
 * Calldata length of each relayer flow's transaction, bytes: EIP-3009's (v, r, s) call is 4 + 9
 * words; Permit2's witness call with its type string and signature is about 23 words.
 */
const CALLDATA_BYTES = { eip3009: 292, permit2: 740 } as const;

/**
 * The L1 data fee of a transaction of `flow`'s size, wei, as the oracle prices it now. The bytes
 * are non-zero filler: zero bytes are cheaper, so this errs high.
 */
export async function l1DataFee(provider: Provider, flow: keyof typeof CALLDATA_BYTES, chainId: bigint, gasLimit: bigint, maxFeePerGas: bigint): Promise<bigint> {
  const sample = Transaction.from({
    type: 2,
    chainId,
    nonce: 0xffff,
    gasLimit,
    maxFeePerGas,
    maxPriorityFeePerGas: maxFeePerGas,
    to: '0x' + 'ff'.repeat(20),
    data: '0x' + 'ff'.repeat(CALLDATA_BYTES[flow]),
  });
  const oracle = new Contract(GAS_PRICE_ORACLE, ORACLE_ABI, provider);
  return (await oracle.getFunction('getL1Fee')(sample.unsignedSerialized)) as bigint;
}
