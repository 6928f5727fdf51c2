// Sending a relayer's signed bytes as they are. Not ethers' `broadcastTransaction`: besides the
// send it reads the head (one more RPC round trip) and parses the bytes and recovers their sender
// in JavaScript to build a response no caller here reads: 2–5 ms of CPU for a batch's bytes, on
// every send and re-send (the settle bench's workers, issue 32). Errors are the same ethers errors:
// a JSON-RPC provider maps the node's refusal of `eth_sendRawTransaction` either way.
import { JsonRpcApiProvider, type Provider } from 'ethers';

export async function sendRawTransaction(provider: Provider, rawTx: string): Promise<void> {
  if (provider instanceof JsonRpcApiProvider) await provider.send('eth_sendRawTransaction', [rawTx]);
  else await provider.broadcastTransaction(rawTx);
}
