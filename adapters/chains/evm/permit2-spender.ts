// The service's Permit2 spender (contracts/Permit2PaymentSpender.sol): buyers name it as the spender
// of their `PermitWitnessTransferFrom`, and it pays only the witness destination, the whole signed
// amount, whoever calls it (the relayer, in a batch or alone; or anyone holding the signature). It
// is deployed by CREATE2 through the standard deterministic deployment proxy with a fixed salt and
// Permit2's address as its constructor argument, so it has one address per Permit2 on every chain,
// computable offline; the code found there is checked against the committed code before a buyer is
// ever asked to sign for it (a chain without it keeps the relayer key as spender).
import { AbiCoder, Interface, concat, getCreate2Address, id, isHexString, keccak256, toBigInt, zeroPadValue, type Log, type Provider } from 'ethers';
import { checksummed } from './address.ts';
import { PERMIT2_SPENDER_CODE } from './permit2-spender-code.ts';
import { messageAddress, messageUint, type Eip712TypedData } from './typed-data.ts';

/** The deterministic deployment proxy (Arachnid's), at this address on nearly every EVM chain. */
export const DETERMINISTIC_DEPLOYER = '0x4e59b44847b379578588920cA78FbF26c0B4956C';
/** Its runtime code: what the sandbox places there, and what the deploy tool expects to find. */
export const DETERMINISTIC_DEPLOYER_RUNTIME =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';
/** Fixed forever: a new salt (or new code) is a new address on every chain. */
export const PERMIT2_SPENDER_SALT = id('merchant-payments:permit2-payment-spender:1');

export const permit2SpenderInterface = new Interface([
  'function pay((((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, address owner, bytes32 payment, address destination, bytes signature) p)',
  'function payAll((((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, address owner, bytes32 payment, address destination, bytes signature)[] payments) returns (bool[] paid)',
  'function permit2() view returns (address)',
  'event Paid(bytes32 indexed payment, address indexed owner, uint256 nonce)',
]);

const PAID = permit2SpenderInterface.getEvent('Paid')!.topicHash;
const TRANSFER = id('Transfer(address,address,uint256)');

/** The creation code with Permit2's address as the constructor argument. */
export function spenderInitCode(permit2: string): string {
  return concat([PERMIT2_SPENDER_CODE.creationCode, AbiCoder.defaultAbiCoder().encode(['address'], [checksummed(permit2)])]);
}

/** Computed once per Permit2 address: every step of a Permit2 payment asks whether its permit names the contract. */
const addresses = new Map<string, string>();

/** Where the spender for `permit2` is (or will be) on any chain. */
export function permit2SpenderAddress(permit2: string): string {
  const key = permit2.toLowerCase();
  let address = addresses.get(key);
  if (!address) addresses.set(key, (address = getCreate2Address(DETERMINISTIC_DEPLOYER, PERMIT2_SPENDER_SALT, keccak256(spenderInitCode(permit2)))));
  return address;
}

/** The runtime code the spender for `permit2` has once deployed: the compiled code with Permit2's address in its immutable slots. */
export function spenderRuntime(permit2: string): string {
  const word = zeroPadValue(checksummed(permit2), 32).slice(2).toLowerCase();
  let hex = PERMIT2_SPENDER_CODE.runtimeTemplate.slice(2).toLowerCase();
  for (const offset of PERMIT2_SPENDER_CODE.immutableOffsets) hex = hex.slice(0, offset * 2) + word + hex.slice(offset * 2 + 64);
  return `0x${hex}`;
}

/** The deployment transaction's request: sent to the proxy by any funded account, on any chain. */
export function spenderDeployRequest(permit2: string): { to: string; data: string } {
  return { to: DETERMINISTIC_DEPLOYER, data: concat([PERMIT2_SPENDER_SALT, spenderInitCode(permit2)]) };
}

/**
 * Null when the spender for `permit2` is deployed on this chain with exactly the expected code; else
 * why not (buyers then keep naming the relayer key). An RPC failure throws: nothing is concluded.
 */
export async function permit2SpenderProblem(provider: Provider, permit2: string): Promise<string | null> {
  const address = permit2SpenderAddress(permit2);
  const code = (await provider.getCode(address)).toLowerCase();
  if (code === '0x') return `the Permit2 spender is not deployed at ${address} (deploy it: tools/permit2-spender)`;
  if (code !== spenderRuntime(permit2)) return `the code at the Permit2 spender's address ${address} is not the expected spender`;
  return null;
}

/** Whether a permit names the deterministic spender of the Permit2 it is for (not a relayer key). */
export function namesSpenderContract(typedData: Eip712TypedData): boolean {
  try {
    return messageAddress(typedData.message, 'spender') === permit2SpenderAddress(String(typedData.domain.verifyingContract));
  } catch {
    return false;
  }
}

/** The `pay` call of a signed witness permit: everything comes from what the buyer signed. */
export function spenderPayCall(typedData: Eip712TypedData, signature: string, owner: string): { target: string; callData: string } {
  const m = typedData.message;
  const permitted = m.permitted as Record<string, unknown>;
  const witness = m.witness as Record<string, unknown>;
  if (!isHexString(witness?.payment, 32)) throw new Error('witness payment is not bytes32');
  const payment = {
    permit: {
      permitted: { token: messageAddress(permitted, 'token'), amount: messageUint(permitted, 'amount') },
      nonce: messageUint(m, 'nonce'),
      deadline: messageUint(m, 'deadline'),
    },
    owner: checksummed(owner),
    payment: String(witness.payment),
    destination: messageAddress(witness, 'destination'),
    signature,
  };
  return { target: permit2SpenderAddress(String(typedData.domain.verifyingContract)), callData: permit2SpenderInterface.encodeFunctionData('pay', [payment]) };
}

type LogLike = Pick<Log, 'address' | 'topics' | 'data'> & { index?: number };

/** What identifies one permit's payment in a receipt (its owner is the payment's buyer): the spender's `Paid(payment, owner)` with its nonce. */
export type SpenderPayment = { spender: string; payment: string; nonce: bigint };

/** The permit a submission names, as its receipt is judged: the spender, the witness's payment, the nonce. */
export function spenderPaymentOf(typedData: Eip712TypedData): SpenderPayment {
  const witness = typedData.message.witness as Record<string, unknown>;
  if (!isHexString(witness?.payment, 32)) throw new Error('witness payment is not bytes32');
  return { spender: messageAddress(typedData.message, 'spender'), payment: String(witness.payment), nonce: messageUint(typedData.message, 'nonce') };
}

/**
 * The value the token moved from `check.from` to `check.to` for this permit in these logs: the
 * token's Transfer emitted between the spender's previous `Paid` and this permit's `Paid` (the call
 * that emitted it). 0n when the permit was not paid here or its transfer went elsewhere. A receipt
 * may carry two payments of one buyer to one merchant: each is paired with its own event, never summed.
 */
export function spenderTransfer(logs: readonly LogLike[], check: { token: string; from: string; to: string }, p: SpenderPayment): bigint {
  const token = checksummed(check.token);
  const spender = checksummed(p.spender);
  const ordered = [...logs].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const isPaid = (l: LogLike) => checksummed(l.address) === spender && l.topics[0]?.toLowerCase() === PAID;
  const at = ordered.findIndex((l) => {
    if (!isPaid(l) || l.topics.length !== 3 || !isHexString(l.data, 32)) return false;
    return (
      l.topics[1]!.toLowerCase() === p.payment.toLowerCase() &&
      l.topics[2]!.toLowerCase() === zeroPadValue(checksummed(check.from), 32).toLowerCase() &&
      toBigInt(l.data) === p.nonce
    );
  });
  if (at < 0) return 0n;
  let start = at - 1;
  while (start >= 0 && !isPaid(ordered[start]!)) start--;
  const transfer = ordered
    .slice(start + 1, at)
    .reverse()
    .find((l) => checksummed(l.address) === token && l.topics[0]?.toLowerCase() === TRANSFER);
  if (!transfer || transfer.topics.length !== 3 || !isHexString(transfer.data, 32)) return 0n;
  const [, from, to] = transfer.topics.map((t) => t.toLowerCase());
  if (from !== zeroPadValue(checksummed(check.from), 32).toLowerCase() || to !== zeroPadValue(checksummed(check.to), 32).toLowerCase()) return 0n;
  return toBigInt(transfer.data);
}

/** The log filter of one permit's `Paid` event by `owner`: how a search finds whoever paid it. */
export const spenderPaidTopics = (p: SpenderPayment, owner: string): string[] => [PAID, p.payment.toLowerCase(), zeroPadValue(checksummed(owner), 32).toLowerCase()];
