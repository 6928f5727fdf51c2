import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs middleware in a fixed order as one Express handler. Every API request passes the same
 * steps, so matching each one's mount path, as Express's router does per layer, is wasted work;
 * on the create-payment path the router's bookkeeping cost as much as the steps themselves.
 * An error (thrown, rejected or passed to `next`) leaves the chain for the app's error handler.
 */
export function chain(steps: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let i = 0;
    const next = (err?: unknown): void => {
      if (err !== undefined && err !== null) return done(err);
      const step = steps[i++];
      if (!step) return done();
      try {
        const out = step(req, res, next);
        if (out instanceof Promise) out.catch(done);
      } catch (e) {
        done(e);
      }
    };
    next();
  };
}
