import type { Request } from 'express';

/** A form field as one string: absent, repeated (an array) or anything else reads as ''. */
export function field(req: Request, name: string): string {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : '';
}
