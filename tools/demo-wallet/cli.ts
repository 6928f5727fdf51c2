/**
 * The demo wallet: pays a payment on the sandbox as a wallet would, printing each step.
 *
 *   npm run wallet -- pay <link> [--base-url <url>] [--api-key <wk_…>] [--asset <CAIP-19>]
 *
 * Exit codes: 0 when the payment ends `succeeded`; 1 for any other final status or an expected
 * failure (bad key, expired or unknown payment, no option, faucet refused), with one clear line
 * on stderr; 2 for usage mistakes. Only an unexpected error (a bug) prints a stack trace.
 */
import { USAGE, parseCli } from './args.ts';
import { UsageError, describeExpectedError } from './errors.ts';
import { payOnSandbox } from './pay.ts';

async function main(argv: string[]): Promise<number> {
  let command: ReturnType<typeof parseCli>;
  try {
    command = parseCli(argv, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\n(npm run wallet -- --help for usage)\n`);
    return 2;
  }
  if (command.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    const status = await payOnSandbox(command.config, (line) => process.stdout.write(`${line}\n`));
    if (status.status === 'succeeded') return 0;
    process.stderr.write(`error: the payment ended ${status.status}${status.failureCode ? ` (${status.failureCode})` : ''}, not succeeded\n`);
    return 1;
  } catch (error) {
    const message = describeExpectedError(error);
    if (message === null) throw error;
    process.stderr.write(`error: ${message}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`unexpected error (a bug in the demo wallet or the service):\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
