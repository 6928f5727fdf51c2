/** Merchant logo (`iconUrl`) checks per the interface's logo specification. */
export { checkLogo, createLogoIssueChecker } from './check-logo.ts';
export type { LogoAccepted, LogoCheckResult, LogoRejected } from './check-logo.ts';
export { DEFAULT_LOGO_LIMITS } from './logo-limits.ts';
export type { LogoLimits } from './logo-limits.ts';
export type { LogoFormat } from './image-format.ts';
export { isSquareEnough, squareDeviation } from './square.ts';
