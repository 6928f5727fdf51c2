/**
 * The confirm half of the long-poll bench. A confirm long-poll needs a payment a buyer really
 * paid: for each payment a fresh buyer takes the options, is funded by the sandbox faucet and
 * signs the EIP-3009 authorization its USDC option asks for, all before the clock starts. The
 * bench then sends every confirm with `maxPollMs`; each is verified, moves its payment to
 * processing and waits there until a worker's transfer lands on the chain.
 */
import { createGatewayClient, executeActions, resolveBuildActions } from '../../clients/wallet/src/index.ts';
import { createBuyer } from '../demo-wallet/buyer.ts';
import { createSandboxApi } from '../demo-wallet/sandbox-api.ts';
import type { ApiProcess } from './api-process.ts';

export interface SignedConfirm {
  paymentId: string;
  /** The confirm's body: the option and the signed results. */
  body: { optionId: string; results: Awaited<ReturnType<typeof executeActions>> };
}

/** A signer of confirms for `api`'s payments: each call pays one payment with a fresh buyer, up to the confirm. */
export async function confirmSigner(api: ApiProcess): Promise<(paymentId: string) => Promise<SignedConfirm>> {
  if (api.chainsUrl === null) throw new Error('confirm long-polls need the standalone sandbox chains (production mode)');
  const faucet = createSandboxApi(api.chainsUrl);
  const sandbox = await faucet.info();
  const client = createGatewayClient({ baseUrl: api.url, apiKey: api.walletKey });
  return async (paymentId) => {
    const buyer = await createBuyer(sandbox);
    try {
      const offer = await client.getOptions(paymentId, { accounts: buyer.accounts });
      const option = offer.options.find((o) => o.amount.unit.startsWith('caip19/eip155:'));
      if (!option) throw new Error(`no EVM option for ${paymentId} among ${offer.options.map((o) => o.amount.unit).join(', ')}`);
      await faucet.fund(option.account, option.amount.unit.slice('caip19/'.length), BigInt(option.amount.value));
      const actions = await resolveBuildActions(option.actions, (build) => client.fetchAction(paymentId, { optionId: option.id, data: build.build.data }));
      return { paymentId, body: { optionId: option.id, results: await executeActions(actions, buyer.signers) } };
    } finally {
      buyer.close();
    }
  };
}

/** Sends one signed confirm as a long-poll (no retry: one request, one answer). */
export async function confirmLongPoll(api: ApiProcess, c: SignedConfirm, maxPollMs: number): Promise<{ status: number; body: { status?: string } }> {
  const res = await fetch(`${api.url}/v1/gateway/payment/${c.paymentId}/confirm?maxPollMs=${maxPollMs}`, {
    method: 'POST',
    headers: { 'Api-Key': api.walletKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(c.body),
  });
  return { status: res.status, body: (await res.json()) as { status?: string } };
}
