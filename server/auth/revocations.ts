/**
 * Revocations made in this process, told to this process's API key cache: a key revoked from the
 * dashboard is refused by the same process at once, not after its trust period. Other API
 * processes notice within their `keyTrustMs` (they read the key again by then).
 */
export interface KeyRevocations {
  onRevoked(listener: (keyHash: string) => void): void;
  revoked(keyHash: string): void;
}

export function createKeyRevocations(): KeyRevocations {
  const listeners: Array<(keyHash: string) => void> = [];
  return {
    onRevoked: (listener) => void listeners.push(listener),
    revoked: (keyHash) => listeners.forEach((l) => l(keyHash)),
  };
}
