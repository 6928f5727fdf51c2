import type { Response } from 'express';
import type { PartnerRecord } from '../domain/partners/records.ts';
import type { SessionRecord, UserRecord } from '../domain/users/records.ts';

/** The signed-in user of a request, once `loadSession` found one. */
export interface Signed {
  user: UserRecord;
  session: SessionRecord;
  partner: PartnerRecord;
  /** The service runs in the sandbox: every page says so. */
  sandbox?: boolean;
}

export const signedOf = (res: Response): Signed | undefined => res.locals.dashboard as Signed | undefined;
