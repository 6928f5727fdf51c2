// EIP-3009 `transferWithAuthorization` (USDC): the buyer signs, the service's relayer submits
// and pays the gas; the tokens go straight from the buyer to the merchant's destination.
import { Contract, Signature, isError, isHexString, type Provider, type Signer } from 'ethers';
import { checksummed } from './address.ts';
import { EIP3009_ABI, ERC20_ABI } from './abis.ts';
import { chainIdQuantity, messageAddress, messageUint, recoverTypedDataSigner, uint256Quantity, type Eip712TypedData, type TypedDataField } from './typed-data.ts';

/** EIP-712 domain name and version of a token (FiatToken: its name and "2"). */
export type TokenDomain = { name: string; version: string };

export const TRANSFER_WITH_AUTHORIZATION_TYPES: Record<string, TypedDataField[]> = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
};

const domainCache = new Map<string, Promise<TokenDomain>>();

/**
 * Reads the token's EIP-712 name and version once per (chain, token) and caches them: they are
 * fixed at initialization, and every option build would otherwise cost two RPC calls. Failures
 * are not cached. Tokens without `version()` fall back to "1" (the EIP-712 convention).
 */
export async function readTokenDomain(provider: Provider, token: string): Promise<TokenDomain> {
  const address = checksummed(token);
  const { chainId } = await provider.getNetwork();
  const key = `${chainId}:${address}`;
  const cached = domainCache.get(key);
  if (cached) return cached;
  const contract = new Contract(address, ERC20_ABI, provider);
  const pending = (async () => {
    const name = (await contract.getFunction('name')()) as string;
    const version = await (contract.getFunction('version')() as Promise<string>).catch((error: unknown) => {
      // Only "no such function" falls back; an RPC failure must not cache a wrong version.
      if (isError(error, 'CALL_EXCEPTION') || isError(error, 'BAD_DATA')) return '1';
      throw error;
    });
    return { name, version };
  })();
  domainCache.set(key, pending);
  pending.catch(() => domainCache.delete(key));
  return pending;
}

export type TransferWithAuthorizationInput = {
  token: string;
  chainId: number | bigint;
  /** The token's EIP-712 domain, from `readTokenDomain`. */
  domain: TokenDomain;
  from: string;
  to: string;
  value: bigint;
  /** Unix seconds; the authorization is valid strictly after this. */
  validAfter: bigint;
  /** Unix seconds; the authorization is valid strictly before this (use the quote deadline). */
  validBefore: bigint;
  /** bytes32 hex, from `deriveNonce(...).eip3009`. */
  nonce: string;
};

/**
 * Builds the `TransferWithAuthorization` typed data exactly as `eth_signTypedData_v4` takes it;
 * the same call with the payment's stored values rebuilds the expected message at verify time.
 */
export function buildTransferWithAuthorization(input: TransferWithAuthorizationInput): Eip712TypedData {
  if (input.value <= 0n) throw new Error('value must be positive');
  if (input.validBefore <= input.validAfter) throw new Error('validBefore must be after validAfter');
  if (!isHexString(input.nonce, 32)) throw new Error('nonce must be 32 bytes of hex');
  return {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      ...TRANSFER_WITH_AUTHORIZATION_TYPES,
    },
    primaryType: 'TransferWithAuthorization',
    domain: {
      name: input.domain.name,
      version: input.domain.version,
      chainId: chainIdQuantity(input.chainId),
      verifyingContract: checksummed(input.token),
    },
    message: {
      from: checksummed(input.from),
      to: checksummed(input.to),
      value: uint256Quantity(input.value, 'value'),
      validAfter: uint256Quantity(input.validAfter, 'validAfter'),
      validBefore: uint256Quantity(input.validBefore, 'validBefore'),
      nonce: input.nonce.toLowerCase(),
    },
  };
}

/** Recovers who signed the authorization (throws on a malformed signature). */
export function recoverTransferWithAuthorizationSigner(typedData: Eip712TypedData, signature: string): string {
  return recoverTypedDataSigner(typedData, TRANSFER_WITH_AUTHORIZATION_TYPES, 'TransferWithAuthorization', signature);
}

/**
 * True when `signature` is the `from` account's signature over exactly this message. Pass the
 * typed data rebuilt from the payment (amount, destination, nonce): a signature over anything
 * else recovers another address and fails. Malformed signatures answer false.
 */
export function verifyTransferWithAuthorization(typedData: Eip712TypedData, signature: string): boolean {
  try {
    return recoverTransferWithAuthorizationSigner(typedData, signature) === messageAddress(typedData.message, 'from');
  } catch {
    return false;
  }
}

/**
 * Submits the authorization from the relayer (who pays gas) and returns the tx hash without
 * waiting. A 65-byte signature uses the (v, r, s) overload every FiatToken version has; longer
 * ones (ERC-1271 smart wallets) use the `bytes` overload of V2.2. A revert found during gas
 * estimation throws before anything is broadcast (see `classifySubmitError`).
 */
export async function submitTransferWithAuthorization(relayer: Signer, typedData: Eip712TypedData, signature: string): Promise<string> {
  const token = typedData.domain.verifyingContract;
  if (!token) throw new Error('typed data has no verifyingContract');
  const message = typedData.message;
  const args = [
    messageAddress(message, 'from'),
    messageAddress(message, 'to'),
    messageUint(message, 'value'),
    messageUint(message, 'validAfter'),
    messageUint(message, 'validBefore'),
    String(message.nonce),
  ] as const;
  const contract = new Contract(token, EIP3009_ABI, relayer);
  const bytes = (signature.length - 2) / 2;
  const tx =
    bytes === 65
      ? await (() => {
          const split = Signature.from(signature);
          return contract.getFunction('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)').send(...args, split.v, split.r, split.s);
        })()
      : await contract.getFunction('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)').send(...args, signature);
  return tx.hash;
}

/**
 * Whether the authorization nonce is already used or cancelled on chain: after an unknown
 * submission outcome, true means the transfer happened (find it by the stored tx hash).
 */
export async function readAuthorizationState(provider: Provider, token: string, authorizer: string, nonce: string): Promise<boolean> {
  const contract = new Contract(checksummed(token), EIP3009_ABI, provider);
  return (await contract.getFunction('authorizationState')(checksummed(authorizer), nonce)) as boolean;
}
