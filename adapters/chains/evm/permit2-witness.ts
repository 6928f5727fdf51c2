// Permit2 SignatureTransfer with a witness: what the buyer signs names the payment and the
// merchant's destination, so the permit is of no use for any other transfer the service makes.
// Permit2 checks that the signature covers the witness; it does not compare the witness with
// `transferDetails.to` (the spender, our relayer, chooses `to`): the service submits with `to`
// taken from the witness, and a contract spender would be needed to enforce it on chain.
import { TypedDataEncoder, isHexString, type Signer } from 'ethers';
import { checksummed } from './address.ts';
import { buildPermitTransferFrom, checkedPermit, type PermitTransferFromInput } from './permit2.ts';
import { messageAddress, recoverTypedDataSigner, type Eip712TypedData, type TypedDataField } from './typed-data.ts';

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
export const PAYMENT_WITNESS_TYPE_STRING = 'PaymentWitness witness)PaymentWitness(bytes32 payment,address destination)TokenPermissions(address token,uint256 amount)';

export type PermitWitnessInput = PermitTransferFromInput & {
  /** bytes32 naming the payment (`derivePaymentReference`). */
  payment: string;
  /** The merchant's destination: where the submission must send the tokens. */
  destination: string;
};

/**
 * The `PermitWitnessTransferFrom` typed data for `eth_signTypedData_v4`: the plain permit's
 * domain and message, with the witness beside them.
 */
export function buildPermitWitnessTransferFrom(input: PermitWitnessInput): Eip712TypedData {
  if (!isHexString(input.payment, 32)) throw new Error('payment must be 32 bytes of hex');
  const plain = buildPermitTransferFrom(input);
  return {
    ...plain,
    types: { EIP712Domain: plain.types.EIP712Domain!, ...PERMIT_WITNESS_TRANSFER_FROM_TYPES },
    primaryType: 'PermitWitnessTransferFrom',
    message: { ...plain.message, witness: { payment: input.payment.toLowerCase(), destination: checksummed(input.destination) } },
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
  const { contract, permit } = await checkedPermit(relayer, typedData, transfer.requestedAmount);
  const witness = witnessOf(typedData);
  const witnessHash = TypedDataEncoder.from(PAYMENT_WITNESS_TYPES).hash({ payment: witness.payment, destination: witness.destination });
  return contract
    .getFunction('permitWitnessTransferFrom')
    .populateTransaction(
      permit,
      { to: witness.destination, requestedAmount: transfer.requestedAmount },
      checksummed(transfer.owner),
      witnessHash,
      PAYMENT_WITNESS_TYPE_STRING,
      signature,
    );
}
