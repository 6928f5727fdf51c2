import { Router, type Request, type Response } from 'express';
import { AppError } from '../errors.ts';
import { recordAudit } from '../domain/audit/recorder.ts';
import type { AuditAction } from '../domain/audit/records.ts';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
  type WebhookEndpointDeps,
} from '../domain/webhooks/endpoints.ts';
import { redeliverEvent, sendTestEvent } from '../domain/webhooks/redeliver.ts';
import type { DashboardDeps } from './deps.ts';
import { field } from './form.ts';
import { requirePermission } from './permissions.ts';
import { signedOf, type Signed } from './signed.ts';
import { sendErrorPage } from './views/error-page.ts';
import { sendPage } from './views/shell.ts';
import { endpointPage, secretShownPage, webhooksPage } from './views/webhooks-page.ts';

const NOTICES: Record<string, string> = {
  saved: 'Endpoint saved.',
  enabled: 'Endpoint enabled.',
  disabled: 'Endpoint disabled: no deliveries are sent to it.',
  test: 'Test event queued: it appears below once attempted (reload).',
  redelivered: 'Redelivery queued.',
};

/** The ticked event checkboxes: one value or several (a repeated field), anything else none. */
function events(req: Request): string[] {
  const v = (req.body as Record<string, unknown> | undefined)?.events;
  return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
}

/** The message of a refused use case (a bad URL, an unknown event), as the API would say it. */
const problemOf = (err: AppError) => [err.message, ...(err.issues ?? []).map((i) => `${i.field}: ${i.message}`)].join(' — ');

/**
 * Webhook endpoints and their delivery logs: the same use cases as the API's handlers
 * (server/domain/webhooks), recorded in the audit log with the signed-in user as actor. Reading
 * needs `read`, every change `webhooks:write`.
 */
export function webhookRoutes(deps: DashboardDeps): Router {
  const router = Router();
  const endpoints: WebhookEndpointDeps = { storage: deps.storage, clock: deps.clock, endpointPolicy: deps.webhookEndpoints };
  const audit = (s: Signed, action: AuditAction, id: string, detail: Record<string, string> = {}) =>
    recordAudit(deps.storage.auditLog, {
      partnerId: s.partner.id,
      actor: { kind: 'user', id: s.user.id, display: s.user.email },
      action,
      target: { type: 'webhook_endpoint', id },
      at: new Date(deps.clock.now()),
      detail,
    });
  const id = (req: Request) => String(req.params.id);
  const showEndpoint = async (res: Response, s: Signed, endpointId: string, status: number, extra: { notice?: string; error?: string } = {}) => {
    const endpoint = await getEndpoint(endpoints, s.partner.id, endpointId);
    const deliveries = await listDeliveries(endpoints, s.partner.id, endpointId, { limit: 50 });
    sendPage(res, status, endpointPage(s, { endpoint, deliveries, ...extra }));
  };
  /** Runs a use case; a refusal (unknown endpoint, bad input) answers its page, never a 500. */
  const guarded = (run: (req: Request, res: Response, s: Signed) => Promise<void>) => async (req: Request, res: Response) => {
    const s = signedOf(res)!;
    try {
      await run(req, res, s);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.status === 404) return sendErrorPage(res, 404, 'No such endpoint', 'This account has no webhook endpoint or event with that id.');
      sendErrorPage(res, err.status, 'Not done', problemOf(err));
    }
  };

  router.get(
    '/dashboard/webhooks',
    requirePermission('read'),
    guarded(async (req, res, s) => {
      const deleted = typeof req.query.deleted === 'string' ? req.query.deleted : undefined;
      sendPage(res, 200, webhooksPage(s, { endpoints: await listEndpoints(endpoints, s.partner.id), ...(deleted ? { deleted } : {}) }));
    }),
  );

  router.post(
    '/dashboard/webhooks',
    requirePermission('webhooks:write'),
    guarded(async (req, res, s) => {
      const url = field(req, 'url').trim();
      const enabledEvents = events(req);
      try {
        const e = await createEndpoint(endpoints, s.partner, { url, enabledEvents });
        await audit(s, 'webhook_endpoint.create', e.id, { url: e.url });
        // The secret is in this answer only (no-store): no later page shows it.
        sendPage(res, 201, secretShownPage(s, { endpoint: e, rotated: false }));
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 400) throw err;
        sendPage(res, 400, webhooksPage(s, { endpoints: await listEndpoints(endpoints, s.partner.id), error: problemOf(err), url, events: enabledEvents }));
      }
    }),
  );

  router.get(
    '/dashboard/webhooks/:id',
    requirePermission('read'),
    guarded(async (req, res, s) => {
      // A fixed set of notices, so a crafted link cannot put its own words on the page.
      const notice = typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined;
      await showEndpoint(res, s, id(req), 200, notice ? { notice } : {});
    }),
  );

  router.post(
    '/dashboard/webhooks/:id',
    requirePermission('webhooks:write'),
    guarded(async (req, res, s) => {
      try {
        const e = await updateEndpoint(endpoints, s.partner, id(req), { url: field(req, 'url').trim(), enabledEvents: events(req) });
        await audit(s, 'webhook_endpoint.update', e.id, { url: e.url, events: e.enabledEvents.join(' ') });
        res.redirect(303, `/dashboard/webhooks/${encodeURIComponent(e.id)}?done=saved`);
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 400) throw err;
        await showEndpoint(res, s, id(req), 400, { error: problemOf(err) });
      }
    }),
  );

  for (const enabled of [true, false]) {
    router.post(
      `/dashboard/webhooks/:id/${enabled ? 'enable' : 'disable'}`,
      requirePermission('webhooks:write'),
      guarded(async (req, res, s) => {
        const e = await updateEndpoint(endpoints, s.partner, id(req), { enabled });
        await audit(s, enabled ? 'webhook_endpoint.enable' : 'webhook_endpoint.disable', e.id);
        res.redirect(303, `/dashboard/webhooks/${encodeURIComponent(e.id)}?done=${enabled ? 'enabled' : 'disabled'}`);
      }),
    );
  }

  router.post(
    '/dashboard/webhooks/:id/rotate',
    requirePermission('webhooks:write'),
    guarded(async (req, res, s) => {
      const e = await rotateSecret(endpoints, s.partner.id, id(req));
      await audit(s, 'webhook_endpoint.rotate_secret', e.id);
      sendPage(res, 200, secretShownPage(s, { endpoint: e, rotated: true }));
    }),
  );

  router.post(
    '/dashboard/webhooks/:id/delete',
    requirePermission('webhooks:write'),
    guarded(async (req, res, s) => {
      await deleteEndpoint(endpoints, s.partner.id, id(req));
      await audit(s, 'webhook_endpoint.delete', id(req));
      res.redirect(303, `/dashboard/webhooks?deleted=${encodeURIComponent(id(req))}`);
    }),
  );

  const delivery = {
    storage: deps.storage,
    clock: deps.clock,
    ...(deps.onJobsWritten ? { onJobsWritten: deps.onJobsWritten } : {}),
    ...(deps.webhookRequestLimits ? { requestLimits: deps.webhookRequestLimits } : {}),
  };
  router.post(
    '/dashboard/webhooks/:id/test',
    requirePermission('webhooks:write'),
    guarded(async (req, res, s) => {
      await sendTestEvent(delivery, s.partner, id(req));
      res.redirect(303, `/dashboard/webhooks/${encodeURIComponent(id(req))}?done=test`);
    }),
  );

  router.post(
    '/dashboard/webhooks/:id/deliveries/:eventId/redeliver',
    requirePermission('webhooks:write'),
    guarded(async (req, res, s) => {
      await redeliverEvent(delivery, s.partner, id(req), String(req.params.eventId));
      res.redirect(303, `/dashboard/webhooks/${encodeURIComponent(id(req))}?done=redelivered`);
    }),
  );
  return router;
}
