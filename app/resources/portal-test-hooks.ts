import type { ActionFunctionArgs } from '@remix-run/node';
import { embeddedBilling } from '~/billing/billing.server';
import { creditNoteCommand } from '~/billing/tax/credit-note-command.server';
import { env } from '~/lib/env.server';
import { runPortalJobs } from '~/portal/jobs.server';

/**
 * Test-only hooks of the embedded billing engine, enabled by PORTAL_TEST_HOOKS=1 (which the
 * server refuses in production, with Stripe and in the hosted world); otherwise 404.
 * - POST /api/portal/test/clock  {"advanceMs": n}  moves the billing clock forward (like Stripe's
 *   test clocks) and runs the jobs; answers the new time and the jobs' report.
 * - POST /api/portal/test/jobs   runs the jobs now.
 * - POST /api/portal/test/invoices-fail  {"fail": true|false}  makes loading invoices fail.
 * - POST /api/portal/test/credit-note  {"invoiceNumber", "reason"}  runs the operator's
 *   `npm run credit-note -- issue …` on this server's engine (its PGlite is this process's).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const engine = embeddedBilling();
  if (!env().portalTestHooks || !engine || request.method !== 'POST') return new Response('Not found', { status: 404 });
  const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
  switch (params.hook) {
    case 'clock': {
      const ms = Number(body.advanceMs);
      if (!Number.isFinite(ms) || ms < 0 || ms > 400 * 24 * 3600 * 1000)
        return Response.json({ error: 'advanceMs: 0 to 400 days' }, { status: 400 });
      const now = await engine.advanceClock(ms);
      return Response.json({ now: now.toISOString(), jobs: await runPortalJobs() });
    }
    case 'jobs':
      return Response.json({ jobs: await runPortalJobs() });
    case 'invoices-fail':
      engine.setFailure(body.fail === true ? 'listInvoices' : null);
      return Response.json({ fail: body.fail === true });
    case 'credit-note':
      return Response.json(
        await creditNoteCommand(engine, [
          'issue',
          String(body.invoiceNumber ?? ''),
          '--reason',
          String(body.reason ?? ''),
        ]),
      );
    default:
      return new Response('Not found', { status: 404 });
  }
}

export const loader = () => new Response('Not found', { status: 404 });
