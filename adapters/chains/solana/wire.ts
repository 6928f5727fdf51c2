import { base58Encode } from './base58.ts';

/** A transaction split as it travels on the wire: signatures, then the exact message bytes. */
export interface WireTransaction {
  signatures: Uint8Array[];
  message: Uint8Array;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Strict base64 decoding: Buffer.from silently skips junk, which would blur "what the wallet sent". */
export function decodeBase64Strict(text: string): Uint8Array | null {
  if (typeof text !== 'string' || text.length === 0 || !BASE64.test(text)) return null;
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/**
 * Splits raw transaction bytes without re-encoding anything.
 *
 * Why by hand: comparing a re-serialised message could hide a non-canonical encoding; slicing the bytes
 * keeps "byte-identical to what we built" literal. Returns null when the bytes are not a transaction
 * (for example a bare 64-byte detached signature).
 */
export function splitWireTransaction(raw: Uint8Array): WireTransaction | null {
  let count = 0;
  let shift = 0;
  let offset = 0;
  for (;;) {
    const byte = raw[offset];
    if (byte === undefined || offset >= 3) return null;
    offset++;
    count |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) break;
    shift += 7;
  }
  if (count === 0 || raw.length < offset + count * 64 + 1) return null;
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < count; i++) signatures.push(raw.slice(offset + i * 64, offset + (i + 1) * 64));
  return { signatures, message: raw.slice(offset + count * 64) };
}

/** The transaction id (first signature, base58), known as soon as the fee payer has signed. */
export function signatureOf(signedBase64: string): string | null {
  const raw = decodeBase64Strict(signedBase64);
  const wire = raw && splitWireTransaction(raw);
  const first = wire?.signatures[0];
  return first ? base58Encode(first) : null;
}
