import type { PartnerRecord } from '../../domain/partners/records.ts';

/** Partners; ids are unique. Only their settings (pinned version, display time zone) change. */
export interface PartnerRepository {
  create(partner: PartnerRecord): Promise<void>;
  get(id: string): Promise<PartnerRecord | null>;
  /** Sets the pinned API version and/or the time zone (null: back to UTC); null when no such partner. */
  updateSettings(id: string, changes: { defaultVersion?: string; timeZone?: string | null }): Promise<PartnerRecord | null>;
  /** How many partners exist (first start creates one when there are none). */
  count(): Promise<number>;
}
