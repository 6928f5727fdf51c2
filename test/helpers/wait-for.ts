/**
 * Polls until `check` answers true, failing with `what` after `timeoutMs`. Tests wait on an
 * observable condition rather than a fixed sleep, so they hold on a slow, loaded machine.
 */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
