import type { PaymentStatus } from './state-machine.ts';
import type { ApiVersion, SchemasOf, SpecSchema } from '../vocabulary.ts';

/**
 * What each dated API version may say about a payment, in one place. A value a version does not
 * declare never reaches a client pinned to it: an integration generated from that version's
 * document must be able to parse every answer. New values arrive with a new dated version, by
 * adding them to that version's row here and to the spec with `@added`.
 */
interface VersionVocabulary {
  /** Failure codes the version declares (`PaymentFailureCode`); others stay internal and are left out. */
  failureCodes: ReadonlySet<string>;
  /** Whether payment list items may say `cancelled` (before the preview a cancelled payment lists as `expired`). */
  listsCancelled: boolean;
}

/**
 * One row per version the spec declares (a new version without its row fails typecheck), each
 * typed from that version's document: a failure code it does not declare, or a `listsCancelled`
 * that disagrees with its `PaymentListStatus`, fails typecheck too.
 */
type VocabularyOf<V extends ApiVersion> = VersionVocabulary & {
  failureCodes: ReadonlySet<SchemasOf<V>['PaymentFailureCode']>;
  listsCancelled: 'cancelled' extends SchemasOf<V>['PaymentListStatus'] ? true : false;
};

const VOCABULARY: { [V in ApiVersion]: VocabularyOf<V> } = {
  '2026-02-18': { failureCodes: new Set(['declined_user']), listsCancelled: false },
  '2026-02-19.preview': { failureCodes: new Set(['declined_user']), listsCancelled: true },
};

/** An API version, or `legacy` for the deprecated per-merchant list. */
type ListVersion = string;

/** The deprecated per-merchant list predates `cancelled` in every version. */
const LEGACY_LIST: VersionVocabulary = { failureCodes: new Set(), listsCancelled: false };

function vocabularyOf(version: ListVersion): VersionVocabulary {
  if (version === 'legacy') return LEGACY_LIST;
  const v = (VOCABULARY as Record<string, VersionVocabulary | undefined>)[version];
  if (!v) throw new Error(`no wire vocabulary for API version ${version}`);
  return v;
}

/** A failure code some version states: the spec's `PaymentFailureCode`. */
export type PublicFailureCode = SpecSchema<'PaymentFailureCode'>;

/** The failure code as `version` may state it, or undefined when it declares no such code. */
export function publicFailureCode(code: string | null, version: string): PublicFailureCode | undefined {
  return code !== null && vocabularyOf(version).failureCodes.has(code) ? (code as PublicFailureCode) : undefined;
}

/** A payment's status as a list item under `version` shows it. */
export function listStatus(status: PaymentStatus, version: ListVersion): PaymentStatus {
  const vocab = vocabularyOf(version);
  return status === 'cancelled' && !vocab.listsCancelled ? 'expired' : status;
}

/**
 * The stored statuses a list filter value selects under `version`: where lists show a cancelled
 * payment as `expired`, filtering on `expired` must find it too.
 */
export function statusesSelectedBy(filter: readonly string[], version: ListVersion): PaymentStatus[] {
  const vocab = vocabularyOf(version);
  const out = new Set(filter as PaymentStatus[]);
  if (!vocab.listsCancelled && out.has('expired')) out.add('cancelled');
  return [...out];
}
