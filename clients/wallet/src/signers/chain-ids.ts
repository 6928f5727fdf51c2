/** Well-known Solana CAIP-2 references (genesis-hash prefixes). */
export const SOLANA_MAINNET = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
export const SOLANA_DEVNET = 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1';

/** Accepts `8453`, `"8453"`, `"0x2105"` or `"eip155:8453"`; returns the decimal reference. */
export function evmChainReference(chainId: number | string): string {
  const text = String(chainId);
  const reference = text.startsWith('eip155:') ? text.slice('eip155:'.length) : text;
  const value = reference.startsWith('0x') ? BigInt(reference) : /^[0-9]+$/.test(reference) ? BigInt(reference) : -1n;
  if (value <= 0n) throw new TypeError(`not an EVM chain id: ${JSON.stringify(chainId)}`);
  return value.toString();
}

/** Compares EVM addresses without caring about EIP-55 letter case. */
export function sameEvmAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
