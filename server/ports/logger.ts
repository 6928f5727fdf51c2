/**
 * Logger port: the slice of a pino logger that jobs, queues and the webhook machinery use, so
 * adapters and the domain depend on this interface rather than on the application's job code.
 * A pino `Logger` fits it as is; tests and tools can pass a small one.
 */
export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const ignore = () => {};

/** A logger that drops everything: the default where a caller gives none. */
export const silentLogger: Logger = {
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
};

/** A short description of a thrown value for logs and `lastError`. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}
