// Permit2 SignatureTransfer with a witness: what the buyer signs names the payment and the
// merchant's destination, so the permit is of no use for any other transfer the service makes.
// Permit2 checks that the signature covers the witness; it does not compare the witness with
// `transferDetails.to` (the spender, our relayer, chooses `to`): the service submits with `to`
// taken from the witness, and a contract spender would be needed to enforce it on chain.
import { Contract, TypedDataEncoder, isHexString, type Signer } from 'ethers';
import { checksummed } from './address.ts';
import { PERMIT2_ABI } from './abis.ts';
import { chainIdQuantity, messageAddress, messageUint, recoverTypedDataSigner, uint256Quantity, type Eip712TypedData, type TypedDataField } from './typed-data.ts';

/** The witness struct: which payment, paid to which address. */
export const PAYMENT_WITNESS_TYPES: Record<string, TypedDataField[]> = {
  PaymentWitness: [
    { name: 'payment', type: 'bytes32' },
    { name: 'destination', type: 'address' },
  ],
};

export const PERMIT_WITNESS_TRANSFER_FROM_TYPES: Record<string, TypedDataField[]> = {
  PermitWitnessTransferFrom: [
    { name: 'permitted', type: 'TokenPermissions' },
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'witness', type: 'PaymentWitness' },
  ],
  ...PAYMENT_WITNESS_TYPES,
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
};

/**
 * The tail Permit2 appends to its `PermitWitnessTransferFrom(…,` stub to rebuild the type hash:
 * the witness field, then every referenced struct in EIP-712 order (alphabetical).
 */
export const PAYMENT_WITNESS_TYPE_STRING =
  'PaymentWitness witness)PaymentWitness(bytes32 payment,address destination)TokenPermissions(address token,uint256 amount)';

export type PermitWitnessInput = {
  permit2: string;
  chainId: number | bigint;
  token: string;
  amount: bigint;
  /** The service's relayer (Permit2 requires msg.sender to be the signed spender). */
  spender: string;
  nonce: bigint;
  deadline: bigint;
  /** bytes32 naming the payment (`derivePaymentReference`). */
  payment: string;
  /** The merchant's destination: where the submission must send the tokens. */
  destination: string;
};

/** The `PermitWitnessTransferFrom` typed data for `eth_signTypedData_v4`. */
export function buildPermitWitnessTransferFrom(input: PermitWitnessInput): Eip712TypedData {
  if (input.amount <= 0n) throw new Error('amount must be positive');
  if (!isHexString(input.payment, 32)) throw new Error('payment must be 32 bytes of hex');
  return {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      ...PERMIT_WITNESS_TRANSFER_FROM_TYPES,
    },
    primaryType: 'PermitWitnessTransferFrom',
    domain: { name: 'Permit2', chainId: chainIdQuantity(input.chainId), verifyingContract: checksummed(input.permit2) },
    message: {
      permitted: { token: checksummed(input.token), amount: uint256Quantity(input.amount, 'amount') },
      spender: checksummed(input.spender),
      nonce: uint256Quantity(input.nonce, 'nonce'),
      deadline: uint256Quantity(input.deadline, 'deadline'),
      witness: { payment: input.payment.toLowerCase(), destination: checksummed(input.destination) },
    },
  };
}

function witnessOf(typedData: Eip712TypedData): { payment: string; destination: string } {
  const w = typedData.message.witness;
  if (typeof w !== 'object' || w === null) throw new Error('typed data has no witness');
  const fields = w as Record<string, unknown>;
  if (!isHexString(fields.payment, 32)) throw new Error('witness payment is not bytes32');
  return { payment: String(fields.payment), destination: messageAddress(fields, 'destination') };
}

/** The destination the buyer signed for. */
export const witnessDestination = (typedData: Eip712TypedData): string => witnessOf(typedData).destination;

/**
 * True when `owner` signed exactly this witness permit, checked with our canonical types (a
 * payload whose types or primary type were altered, or a plain `PermitTransferFrom`, fails).
 */
export function verifyPermitWitnessTransferFrom(typedData: Eip712TypedData, signature: string, owner: string): boolean {
  try {
    return recoverTypedDataSigner(typedData, PERMIT_WITNESS_TRANSFER_FROM_TYPES, 'PermitWitnessTransferFrom', signature) === checksummed(owner);
  } catch {
    return false;
  }
}

/**
 * The `permitWitnessTransferFrom` transaction request moving `amount` from `owner` to the
 * witness destination (never a `to` given by the caller). Built, not sent: the relayer signs and
 * records it before broadcasting.
 */
export async function permitWitnessTransferRequest(relayer: Signer, typedData: Eip712TypedData, signature: string, transfer: { owner: string; requestedAmount: bigint }) {
  const permit2 = typedData.domain.verifyingContract;
  if (!permit2) throw new Error('typed data has no verifyingContract');
  const spender = messageAddress(typedData.message, 'spender');
  const relayerAddress = checksummed(await relayer.getAddress());
  if (relayerAddress !== spender) throw new Error(`Relayer ${relayerAddress} is not the permit spender ${spender}`);
  const permittedFields = typedData.message.permitted as Record<string, unknown>;
  const permitted = { token: messageAddress(permittedFields, 'token'), amount: messageUint(permittedFields, 'amount') };
  if (transfer.requestedAmount <= 0n || transfer.requestedAmount > permitted.amount) throw new Error('requestedAmount must be positive and at most the permitted amount');
  const witness = witnessOf(typedData);
  const witnessHash = TypedDataEncoder.from(PAYMENT_WITNESS_TYPES).hash({ payment: witness.payment, destination: witness.destination });
  const contract = new Contract(checksummed(permit2), PERMIT2_ABI, relayer);
  return contract.getFunction('permitWitnessTransferFrom').populateTransaction(
    { permitted, nonce: messageUint(typedData.message, 'nonce'), deadline: messageUint(typedData.message, 'deadline') },
    { to: witness.destination, requestedAmount: transfer.requestedAmount },
    checksummed(transfer.owner),
    witnessHash,
    PAYMENT_WITNESS_TYPE_STRING,
    signature,
  );
}
