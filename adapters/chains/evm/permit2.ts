// Permit2 SignatureTransfer: the buyer approves Permit2 once (ERC-20 approve), then signs a
// one-time `PermitTransferFrom` naming the service's relayer as spender; the relayer submits it
// with the merchant's destination as `to` and pays the gas.
import { Contract, type Provider, type Signer } from 'ethers';
import { checksummed } from './address.ts';
import { ERC20_ABI, PERMIT2_ABI } from './abis.ts';
import { chainIdQuantity, messageAddress, messageUint, recoverTypedDataSigner, uint256Quantity, type Eip712TypedData, type TypedDataField } from './typed-data.ts';
import { erc20Interface, type EthSendTransactionParams } from './transfer.ts';

export const PERMIT_TRANSFER_FROM_TYPES: Record<string, TypedDataField[]> = {
  PermitTransferFrom: [
    { name: 'permitted', type: 'TokenPermissions' },
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
};

export type PermitTransferFromInput = {
  permit2: string;
  chainId: number | bigint;
  token: string;
  amount: bigint;
  /** Who may call `permitTransferFrom`: the service's relayer address. */
  spender: string;
  /** From `deriveNonce(...).permit2`. */
  nonce: bigint;
  /** Unix seconds (the quote deadline). */
  deadline: bigint;
};

/**
 * Builds the `PermitTransferFrom` typed data for `eth_signTypedData_v4`. Permit2's domain has
 * no version. The destination is not part of what the buyer signs (SignatureTransfer lets the
 * spender choose `to`), so it is bound by the service submitting to the registered destination.
 */
export function buildPermitTransferFrom(input: PermitTransferFromInput): Eip712TypedData {
  if (input.amount <= 0n) throw new Error('amount must be positive');
  return {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      ...PERMIT_TRANSFER_FROM_TYPES,
    },
    primaryType: 'PermitTransferFrom',
    domain: { name: 'Permit2', chainId: chainIdQuantity(input.chainId), verifyingContract: checksummed(input.permit2) },
    message: {
      permitted: { token: checksummed(input.token), amount: uint256Quantity(input.amount, 'amount') },
      spender: checksummed(input.spender),
      nonce: uint256Quantity(input.nonce, 'nonce'),
      deadline: uint256Quantity(input.deadline, 'deadline'),
    },
  };
}

/** Recovers the permit's signer, i.e. the token owner (throws on a malformed signature). */
export function recoverPermitTransferFromSigner(typedData: Eip712TypedData, signature: string): string {
  return recoverTypedDataSigner(typedData, PERMIT_TRANSFER_FROM_TYPES, 'PermitTransferFrom', signature);
}

/**
 * True when `owner` signed exactly this permit (rebuilt from the payment: token, amount,
 * spender, nonce, deadline). Malformed signatures answer false.
 */
export function verifyPermitTransferFrom(typedData: Eip712TypedData, signature: string, owner: string): boolean {
  try {
    return recoverPermitTransferFromSigner(typedData, signature) === checksummed(owner);
  } catch {
    return false;
  }
}

function permittedOf(typedData: Eip712TypedData): { token: string; amount: bigint } {
  const permitted = typedData.message.permitted;
  if (typeof permitted !== 'object' || permitted === null) throw new Error('typed data has no permitted tokens');
  const fields = permitted as Record<string, unknown>;
  return { token: messageAddress(fields, 'token'), amount: messageUint(fields, 'amount') };
}

/**
 * Submits the permit from the relayer, moving `requestedAmount` (≤ the signed amount) from
 * `owner` to `to`; returns the tx hash without waiting. The relayer must be the signed spender
 * (Permit2 checks msg.sender), which is checked here before spending gas.
 */
export async function submitPermitTransferFrom(
  relayer: Signer,
  typedData: Eip712TypedData,
  signature: string,
  transfer: { owner: string; to: string; requestedAmount: bigint },
): Promise<string> {
  const { contract, permit } = await checkedPermit(relayer, typedData, transfer.requestedAmount);
  const tx = await contract
    .getFunction('permitTransferFrom')
    .send(permit, { to: checksummed(transfer.to), requestedAmount: transfer.requestedAmount }, checksummed(transfer.owner), signature);
  return tx.hash;
}

/**
 * The Permit2 contract (bound to the relayer) and the permit argument of a signed permit, once the
 * relayer is checked to be its spender (Permit2 checks msg.sender; this saves the gas) and
 * `requestedAmount` to be positive and within the permitted amount.
 */
export async function checkedPermit(relayer: Signer, typedData: Eip712TypedData, requestedAmount: bigint) {
  const permit2 = typedData.domain.verifyingContract;
  if (!permit2) throw new Error('typed data has no verifyingContract');
  const spender = messageAddress(typedData.message, 'spender');
  const relayerAddress = checksummed(await relayer.getAddress());
  if (relayerAddress !== spender) throw new Error(`Relayer ${relayerAddress} is not the permit spender ${spender}`);
  const permitted = permittedOf(typedData);
  if (requestedAmount <= 0n || requestedAmount > permitted.amount) {
    throw new Error('requestedAmount must be positive and at most the permitted amount');
  }
  return {
    contract: new Contract(checksummed(permit2), PERMIT2_ABI, relayer),
    permit: { permitted, nonce: messageUint(typedData.message, 'nonce'), deadline: messageUint(typedData.message, 'deadline') },
  };
}

/** ERC-20 allowance from `owner` to `spender`. */
export async function readErc20Allowance(provider: Provider, token: string, owner: string, spender: string): Promise<bigint> {
  const contract = new Contract(checksummed(token), ERC20_ABI, provider);
  return (await contract.getFunction('allowance')(checksummed(owner), checksummed(spender))) as bigint;
}

/**
 * The allowance SignatureTransfer needs: the owner's ERC-20 allowance to the Permit2 contract.
 * When it is below the amount, the option gets an approve action before the signature.
 */
export function readPermit2Allowance(provider: Provider, token: string, owner: string, permit2: string): Promise<bigint> {
  return readErc20Allowance(provider, token, owner, permit2);
}

/**
 * Whether a Permit2 nonce is spent (Permit2 keeps one bit per nonce: word nonce >> 8, bit
 * nonce & 255). After an unknown submission outcome, true means the permit was used.
 */
export async function isPermit2NonceUsed(provider: Provider, permit2: string, owner: string, nonce: bigint): Promise<boolean> {
  const contract = new Contract(checksummed(permit2), PERMIT2_ABI, provider);
  const word = (await contract.getFunction('nonceBitmap')(checksummed(owner), nonce >> 8n)) as bigint;
  return ((word >> (nonce & 255n)) & 1n) === 1n;
}

/**
 * The `eth_sendTransaction` params for `token.approve(spender, amount)`: the first action of
 * the two-action Permit2 case (spender = Permit2). The wallet fills gas and nonce.
 */
export function buildApproveTransaction(input: { token: string; spender: string; amount: bigint; from?: string }): EthSendTransactionParams {
  const data = erc20Interface.encodeFunctionData('approve', [checksummed(input.spender), input.amount]);
  return {
    ...(input.from === undefined ? {} : { from: checksummed(input.from) }),
    to: checksummed(input.token),
    data,
    value: '0x0',
  };
}
