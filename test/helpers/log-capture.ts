import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { traceLogFields } from '../../server/domain/trace-context.ts';

/** One JSON log line as pino wrote it. */
export type LogLine = Record<string, unknown> & { msg?: string };

/**
 * A pino logger built as server/main.ts builds it (the trace mixin), writing into memory: the lines
 * a test reads back. Synchronous, so a line is there as soon as the call that logs it returns.
 */
export function captureLogs(level = 'debug'): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text) lines.push(JSON.parse(text) as LogLine);
      done();
    },
  });
  return { logger: pino({ level, mixin: traceLogFields }, sink), lines };
}
