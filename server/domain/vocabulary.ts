import { SPEC_VERSIONS, type SpecTypes, type SpecVersion } from '../../generated/types/versions.ts';
import type { MerchantStatus } from './merchants/records.ts';

/**
 * The contract's vocabulary as the spec (spec/ → generated/) declares it, for the domain's own
 * lists to be checked against. Each runtime list (statuses in payments/state-machine.ts, event
 * types in webhooks/events.ts, error codes in server/errors.ts) is written once and proven equal
 * to the spec's union at compile time with `Exact`: a value added on one side only fails typecheck.
 * Versions need no second list: the generator writes the spec's own (generated/types/versions.ts).
 */

/** True when A and B are the same set of types (both unions hold the same members), else false. */
export type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The API versions the spec declares, oldest first. */
export const API_VERSIONS = SPEC_VERSIONS;
export type ApiVersion = SpecVersion;

/** The newest version the spec declares: every older one is a subset of it. */
export type LatestApiVersion = typeof API_VERSIONS extends readonly [...unknown[], infer Last] ? Last & ApiVersion : never;

/** The named schemas of one version's document. */
export type SchemasOf<V extends ApiVersion> = SpecTypes[V]['components']['schemas'];

/** A named schema as any version declares it: the union over all versions. */
export type SpecSchema<Name extends string> = { [V in ApiVersion]: Name extends keyof SchemasOf<V> ? SchemasOf<V>[Name] : never }[ApiVersion];

type ResponsesOf<Op> = Op extends { responses: infer R } ? R[keyof R] : never;
type JsonBodyOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type CodeOf<Body> = Body extends { code: infer Code } ? Code : never;
type OperationsOf<V extends ApiVersion> = SpecTypes[V]['operations'];

/** Every error `code` any operation of any version declares in its answers. */
export type SpecErrorCode = { [V in ApiVersion]: CodeOf<JsonBodyOf<ResponsesOf<OperationsOf<V>[keyof OperationsOf<V>]>>> }[ApiVersion];

// Unions written by hand beside their records, held to the spec here (a type-only import).
const _merchantStatusesAreTheSpecs: Exact<MerchantStatus, SpecSchema<'MerchantStatus'>> = true;
