/** Merchant logo (`iconUrl`) checks per the interface's logo specification. */
export { createLogoIssueChecker } from './check-logo.ts';
