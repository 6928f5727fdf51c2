import { rmSync } from 'node:fs';
import { PACT_DIR } from './consumers/shared.ts';

/** Pact merges into existing files; start from none so a removed interaction leaves the pact too. */
export default function setup(): void {
  process.env.PACT_DO_NOT_TRACK = 'true';
  rmSync(PACT_DIR, { recursive: true, force: true });
}
