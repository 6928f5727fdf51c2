import type { PartnerRecord } from '../../domain/partners/records.ts';

/** Partners. A partner is created once and never changes; ids are unique. */
export interface PartnerRepository {
  create(partner: PartnerRecord): Promise<void>;
  get(id: string): Promise<PartnerRecord | null>;
  /** How many partners exist (first start creates one when there are none). */
  count(): Promise<number>;
}
