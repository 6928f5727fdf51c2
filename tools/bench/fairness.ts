/**
 * `npm run bench -- fairness`: a partner whose webhook receivers hang must not slow another
 * partner's payments. One API process and one worker (`npm start` / `npm run worker` as shipped,
 * PostgreSQL + Redis, the standalone sandbox chains). The bench's partner pays FAIRNESS_PAYMENTS
 * (5) payments one after another, each by a fresh buyer signing EIP-3009 before the clock starts:
 * its figure is confirm (a long-poll) → `succeeded`. First alone (the baseline), then while a second
 * partner's four endpoints, each a tarpit (accepts connections, never answers), get a test event
 * every second each, as measured in issue 30 (72.8 s against 1.0 s before the job pools). Goal:
 * under the tarpits, confirm → succeeded within 2× the baseline.
 */
import net, { type AddressInfo } from 'node:net';
import { startApiProcess, type ApiProcess } from './api-process.ts';
import { confirmLongPoll, confirmSigner } from './longpoll-confirms.ts';

const payments = Number(process.env.FAIRNESS_PAYMENTS ?? 5);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Receivers that accept connections and never answer. */
async function tarpit() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.resume();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    open: () => sockets.size,
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Runs `fn`, naming the step in its error. */
async function step<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause;
    throw new Error(`${what}: ${(err as Error).message}${cause?.message ? ` (${cause.message})` : ''}`, { cause: err });
  }
}

/** Confirm → succeeded, ms, for `n` payments paid one after another. */
async function confirmTimes(api: ApiProcess, sign: Awaited<ReturnType<typeof confirmSigner>>, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = await step('create', () =>
      api.call('POST', '/v1/payments', { amount: { unit: 'iso4217/USD', value: '105' }, referenceId: `fair-${i}`, expiresAt: null }, { 'Merchant-Id': api.merchantId }),
    );
    if (p.status !== 201) throw new Error(`create: ${JSON.stringify(p.body)}`);
    const signed = await step('sign', () => sign(p.body.paymentId!));
    const started = performance.now();
    let answer = await step('confirm', () => confirmLongPoll(api, signed, 30_000));
    if (answer.status !== 200) throw new Error(`confirm answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    // A long-poll that ran out answers `processing`: keep waiting on the status, as a wallet does.
    while (answer.body.status === 'processing') {
      const s = await step('status', () => fetch(`${api.url}/v1/gateway/payment/${signed.paymentId}/status?maxPollMs=30000`, { headers: { 'Api-Key': api.walletKey } }));
      answer = { status: s.status, body: (await s.json()) as { status?: string } };
    }
    if (answer.body.status !== 'succeeded') throw new Error(`payment ${signed.paymentId} ended ${answer.body.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

export async function fairnessBench(): Promise<void> {
  console.log(`fairness bench: confirm → succeeded of ${payments} payments, alone and beside a partner with four tarpit receivers fed a test event a second each`);
  const api = await startApiProcess('fairness', 'production', { WEBHOOK_ALLOW_LOOPBACK: 'on', LOG_LEVEL: 'warn' });
  const pit = await tarpit();
  let feeding = true;
  let feeder: Promise<void> = Promise.resolve();
  try {
    const worker = await step('worker', () => api.startWorker());
    const sign = await step('signer', () => confirmSigner(api));
    await confirmTimes(api, sign, 1); // warm-up: first-time costs of the chain and the process
    const alone = await confirmTimes(api, sign, payments);

    const noisy = await api.newPartner('Noisy');
    const endpoints: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await step(`endpoint (API exit code ${api.child.exitCode})`, () =>
        fetch(`${api.url}/v1/webhook-endpoints`, {
          method: 'POST',
          headers: { 'Api-Key': noisy, 'Content-Type': 'application/json' },
          body: JSON.stringify({ url: pit.url(`/t${i}`), enabledEvents: ['payment.created'] }),
        }),
      );
      endpoints.push(((await res.json()) as { endpoint: { id: string } }).endpoint.id);
    }
    const sent = { accepted: 0, limited: 0 };
    feeder = (async () => {
      for (let i = 0; feeding; i++) {
        const res = await fetch(`${api.url}/v1/webhook-endpoints/${endpoints[i % 4]}/test`, { method: 'POST', headers: { 'Api-Key': noisy } });
        await res.arrayBuffer();
        if (res.status === 202) sent.accepted++;
        else sent.limited++;
        await sleep(250);
      }
    })();
    await sleep(5_000);
    const beside = await confirmTimes(api, sign, payments);
    feeding = false;
    await feeder;
    const ms = (x: number) => `${(x / 1000).toFixed(2)} s`;
    const ratio = median(beside) / median(alone);
    console.log(`  alone:              median ${ms(median(alone))}, max ${ms(Math.max(...alone))}`);
    console.log(`  beside the tarpits: median ${ms(median(beside))}, max ${ms(Math.max(...beside))}  (tarpit attempts open at the end: ${pit.open()})`);
    console.log(`  test events sent to the tarpits: ${sent.accepted} accepted, ${sent.limited} refused by the rate limit`);
    console.log(
      `  ratio beside / alone (medians): ${ratio.toFixed(2)}  (goal ≤ 2.0) ${ratio <= 2 ? 'met' : 'NOT met'}; max / max ${(Math.max(...beside) / Math.max(...alone)).toFixed(2)}`,
    );
    await worker.close();
  } finally {
    feeding = false;
    await feeder.catch(() => {});
    await pit.close();
    await api.close();
  }
}
