import type { PaymentStatus } from './state-machine.ts';
import type { ApiVersion, SchemasOf, SpecSchema } from '../vocabulary.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/event-types.ts';

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
  /** Whether a succeeded payment says where it stands against its chain's finality (`finality`). */
  finality: boolean;
  /** The webhook event types the version declares: an endpoint pinned to it is sent no other. */
  webhookEvents: ReadonlySet<string>;
  /** Whether a payment's details list the transactions that paid it again (`extraPayments`, paid twice). */
  extraPayments: boolean;
}

/**
 * One row per version the spec declares (a new version without its row fails typecheck), each
 * typed from that version's document: a failure code it does not declare, or a `listsCancelled`
 * that disagrees with its `PaymentListStatus`, fails typecheck too.
 */
type VocabularyOf<V extends ApiVersion> = VersionVocabulary & {
  failureCodes: ReadonlySet<SchemasOf<V>['PaymentFailureCode']>;
  listsCancelled: 'cancelled' extends SchemasOf<V>['PaymentListStatus'] ? true : false;
  finality: 'finality' extends keyof SchemasOf<V>['PaymentStatusResponse'] ? true : false;
  webhookEvents: ReadonlySet<SchemasOf<V>['WebhookEventType']>;
  extraPayments: 'extraPayments' extends keyof SchemasOf<V>['Payment'] ? true : false;
};

/** The events of the first versions: every one but those a later version added (a test holds each row to its document). */
type LaterEvent = 'payment.reversed' | 'payment.paid_twice';
type FirstEvent = Exclude<WebhookEventType, LaterEvent>;
const LATER_EVENTS: ReadonlySet<string> = new Set<LaterEvent>(['payment.reversed', 'payment.paid_twice']);
const FIRST_EVENTS: ReadonlySet<FirstEvent> = new Set(WEBHOOK_EVENT_TYPES.filter((t): t is FirstEvent => !LATER_EVENTS.has(t)));
/** 2026-11-27's events: the first ones and `payment.reversed`. */
type ReversalEvent = Exclude<WebhookEventType, 'payment.paid_twice'>;
const REVERSAL_EVENTS: ReadonlySet<ReversalEvent> = new Set(WEBHOOK_EVENT_TYPES.filter((t): t is ReversalEvent => t !== 'payment.paid_twice'));

const VOCABULARY: { [V in ApiVersion]: VocabularyOf<V> } = {
  '2026-02-18': { failureCodes: new Set(['declined_user']), listsCancelled: false, finality: false, webhookEvents: FIRST_EVENTS, extraPayments: false },
  '2026-02-19.preview': { failureCodes: new Set(['declined_user']), listsCancelled: true, finality: false, webhookEvents: FIRST_EVENTS, extraPayments: false },
  '2026-11-27': { failureCodes: new Set(['declined_user']), listsCancelled: true, finality: true, webhookEvents: REVERSAL_EVENTS, extraPayments: false },
  // Paid twice (its event and `extraPayments`) came with a version of its own: 2026-11-27 was published, and a published version never changes.
  '2026-11-28': { failureCodes: new Set(['declined_user']), listsCancelled: true, finality: true, webhookEvents: new Set(WEBHOOK_EVENT_TYPES), extraPayments: true },
};

/** An API version, or `legacy` for the deprecated per-merchant list. */
type ListVersion = string;

/** The deprecated per-merchant list predates `cancelled` in every version. */
const LEGACY_LIST: VersionVocabulary = { failureCodes: new Set(), listsCancelled: false, finality: false, webhookEvents: new Set(), extraPayments: false };

function vocabularyOf(version: ListVersion): VersionVocabulary {
  if (version === 'legacy') return LEGACY_LIST;
  const v = (VOCABULARY as Record<string, VersionVocabulary | undefined>)[version];
  if (!v) throw new Error(`no wire vocabulary for API version ${version}`);
  return v;
}

/** Whether answers under `version` say a succeeded payment's `finality`. */
export function showsFinality(version: string): boolean {
  return vocabularyOf(version).finality;
}

/** Whether a payment's details under `version` list the transactions that paid it again. */
export function showsExtraPayments(version: string): boolean {
  return vocabularyOf(version).extraPayments;
}

/** Whether `version` declares the webhook event type `type`: an endpoint pinned to it is never sent another. */
export function declaresEvent(type: string, version: string): boolean {
  return vocabularyOf(version).webhookEvents.has(type);
}

/** The fields of webhook snapshots (stored once per event, for every version) that only some versions declare. */
const SNAPSHOT_FIELDS_BY_FLAG = { finality: ['finality'], extraPayments: ['extraPayments'] } as const;

/**
 * A stored webhook snapshot as `version` may show it: fields its receivers' version does not
 * declare are left out, so an integration generated from an older document parses every delivery.
 */
export function snapshotFor(data: unknown, version: string): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const vocab = vocabularyOf(version);
  const hidden = (Object.keys(SNAPSHOT_FIELDS_BY_FLAG) as (keyof typeof SNAPSHOT_FIELDS_BY_FLAG)[]).filter((flag) => !vocab[flag]).flatMap((flag) => SNAPSHOT_FIELDS_BY_FLAG[flag]);
  if (!hidden.some((f) => f in data)) return data;
  return Object.fromEntries(Object.entries(data).filter(([k]) => !(hidden as readonly string[]).includes(k)));
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
