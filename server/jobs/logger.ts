/**
 * The job machinery's logger is the logger port (server/ports/logger.ts); these names stay for
 * the job code and tests that use them.
 */
export { describeError, silentLogger as silentJobLogger } from '../ports/logger.ts';
export type { Logger as JobLogger } from '../ports/logger.ts';
