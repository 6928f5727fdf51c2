/** Runs `work`, failing it with "no answer within N ms" when it takes longer: no check may hang the doctor. */
export function bounded<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([Promise.resolve().then(work), late]).finally(() => clearTimeout(timer));
}

export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
