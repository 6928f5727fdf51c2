/**
 * The slice of a pino logger the job machinery uses, so tests and tools can pass a small one;
 * a pino `Logger` fits it as is.
 */
export interface JobLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const ignore = () => {};

export const silentJobLogger: JobLogger = {
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
