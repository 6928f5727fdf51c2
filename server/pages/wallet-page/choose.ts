import type { PaymentOption, WalletRpcAction } from '../../../clients/wallet/src/index.ts';

/**
 * Which option to offer first: fewest wallet prompts, and no transaction the buyer pays gas for.
 * One EIP-3009 signature beats a Permit2 approval plus signature, which beats a direct transfer.
 */
export function rankOption(option: PaymentOption): number {
  const methods = option.actions.map((a) => (a.type === 'walletRpc' ? a.walletRpc.method : 'build'));
  const sends = methods.filter((m) => m === 'eth_sendTransaction').length;
  const authorization = option.actions.some((a) => a.type === 'walletRpc' && /WithAuthorization/.test(a.walletRpc.params));
  return sends * 10 + methods.length + (authorization ? 0 : 1);
}

export function bestOption(options: PaymentOption[]): PaymentOption | undefined {
  return [...options].sort((a, b) => rankOption(a) - rankOption(b))[0];
}

/** "10.5 USDC": the option's token amount from its base units, never through a float. */
export function tokenAmountText(option: PaymentOption): string {
  const display = option.amount.display;
  if (!display) return `${option.amount.value} (${option.amount.unit})`;
  const digits = option.amount.value.padStart(display.decimals + 1, '0');
  const whole = digits.slice(0, digits.length - display.decimals);
  const fraction = digits.slice(digits.length - display.decimals).replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''} ${display.assetSymbol}`;
}

/** `eip155:31337:0xabc…` → `eip155:31337`. */
export function chainOfAccount(account: string): string {
  return account.split(':').slice(0, 2).join(':');
}

/**
 * Where the money goes, as the wallet will show it: the EIP-3009 authorization's `to`, the
 * Permit2 witness's recipient, or the tagged transfer's recipient (ERC-20 `transfer(to, …)`).
 * Undefined when the action does not name it plainly (a Solana transaction built on fetch).
 */
export function recipientOf(actions: WalletRpcAction[]): string | undefined {
  for (const action of actions) {
    let params: unknown[];
    try {
      params = JSON.parse(action.walletRpc.params) as unknown[];
    } catch {
      continue;
    }
    if (action.walletRpc.method === 'eth_signTypedData_v4') {
      const raw = params[1];
      const typed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { primaryType?: string; message?: Record<string, unknown> };
      const message = typed.message ?? {};
      const witness = message.witness as Record<string, unknown> | undefined;
      const to = message.to ?? witness?.recipient ?? witness?.to ?? witness?.destination;
      if (typeof to === 'string' && /WithAuthorization|Witness/.test(typed.primaryType ?? '')) return to;
    }
    if (action.walletRpc.method === 'eth_sendTransaction') {
      const data = (params[0] as { data?: string } | undefined)?.data ?? '';
      // transfer(address,uint256): the recipient is the first argument's low 20 bytes.
      if (data.startsWith('0xa9059cbb') && data.length >= 74) return `0x${data.slice(34, 74)}`;
    }
  }
  return undefined;
}

/** What each wallet prompt will be, in the buyer's words. */
export function stepText(action: WalletRpcAction): string {
  const { method, params } = action.walletRpc;
  if (method === 'eth_signTypedData_v4') return /WithAuthorization/.test(params) ? 'sign a transfer authorization (no gas)' : 'sign a Permit2 transfer (no gas)';
  if (method === 'eth_sendTransaction')
    return /0x095ea7b3/i.test(params) ? 'approve Permit2 to move this token (a transaction; you pay its gas)' : 'send the transfer (a transaction; you pay its gas)';
  if (method === 'solana_signTransaction') return 'sign the transfer (the network fee is paid for you)';
  return method;
}
