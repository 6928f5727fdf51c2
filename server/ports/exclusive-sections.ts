/**
 * Runs work that must not overlap with other work of the same key: in one process, or in every
 * process sharing the adapter's backend (a PostgreSQL server). The EVM relayer takes one per
 * relayer account and chain, so its nonces are taken one at a time however many workers sign.
 */
export interface ExclusiveSections {
  /**
   * Runs `work` while no other holder of `key` runs one, and answers what it answers. Callers of
   * one instance waiting on one key run in call order. A failed `work` releases the key like a
   * successful one. Rejects without running `work` when the key cannot be had in the adapter's
   * wait bound.
   */
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Stops taking keys; sections already running finish first. */
  close(): Promise<void>;
}
