import { parseArgs } from 'node:util';
import { UsageError } from './errors.ts';
import { paymentIdFromLink } from './link.ts';
import type { PayConfig } from './pay.ts';

export const USAGE = `usage: npm run wallet -- pay <link> [--base-url <url>] [--api-key <wallet key>] [--asset <CAIP-19>] [--pay-host <host>]

Pays a payment on the sandbox the way a wallet does, with fresh EVM and Solana keys funded
through the sandbox faucet, and prints each step. Exits 0 only when the payment succeeded.

  <link>              the payment's gatewayUrl (https://pay.example/<id>, …/?pid=<id>,
                      http://localhost:3000/pay/<id>, a wc:…?pay=<link> URI) or a bare pay_… id
  --base-url <url>    the service (default: $BASE_URL, else http://localhost:3000)
  --api-key <key>     a wallet key wk_… (default: $WALLET_API_KEY)
  --asset <CAIP-19>   pay with this asset (see GET <base-url>/sandbox); default: the first option
  --pay-host <host>   the host payment links must be on; default: the link's own host, which
                      trusts any link you paste (fine on the sandbox; a real wallet pins its host)
  --max-poll-ms <ms>  how long confirm long-polls on the service (default 20000)
  --timeout-ms <ms>   how long to wait for a final status after confirm (default 120000)
  -h, --help          this text

Exit codes: 0 succeeded; 1 any other final status or an error (message on stderr); 2 usage.`;

export type CliCommand = { kind: 'help' } | { kind: 'pay'; config: PayConfig };

/** Reads argv and the environment into a command; every mistake is a UsageError (exit 2). */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliCommand {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { kind: 'help' };
  const [command, link, ...extra] = positionals;
  if (command === undefined) throw new UsageError('missing command: pay');
  if (command !== 'pay') throw new UsageError(`unknown command ${JSON.stringify(command)}; the only command is pay`);
  if (link === undefined) throw new UsageError('pay needs a payment link or id');
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  const apiKey = values['api-key'] ?? env.WALLET_API_KEY;
  if (apiKey === undefined || apiKey === '') throw new UsageError('no wallet key: pass --api-key wk_… or set WALLET_API_KEY');
  const baseUrl = values['base-url'] ?? env.BASE_URL ?? 'http://localhost:3000';
  if (!/^https?:\/\/[^/]/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  const config: PayConfig = {
    paymentId: paymentIdFromLink(link, values['pay-host']),
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey,
    maxPollMs: milliseconds(values['max-poll-ms'], '--max-poll-ms', 20_000),
    timeoutMs: milliseconds(values['timeout-ms'], '--timeout-ms', 120_000),
  };
  if (values.asset !== undefined) config.asset = values.asset;
  return { kind: 'pay', config };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      asset: { type: 'string' },
      'pay-host': { type: 'string' },
      'max-poll-ms': { type: 'string' },
      'timeout-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function milliseconds(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw)) throw new UsageError(`${name} must be a whole number of milliseconds`);
  return Number(raw);
}
