/**
 * Key changes made in this process (a revocation, an App-Id's new origins), told to this process's
 * API key cache so it drops its copy: the same process applies the change at once, not after its
 * trust period. Other API processes notice within their `keyTrustMs` (they read the key again by then).
 */
export interface KeyRevocations {
  onChanged(listener: (keyHash: string) => void): void;
  changed(keyHash: string): void;
}

export function createKeyRevocations(): KeyRevocations {
  const listeners: Array<(keyHash: string) => void> = [];
  return {
    onChanged: (listener) => void listeners.push(listener),
    changed: (keyHash) => listeners.forEach((l) => l(keyHash)),
  };
}
