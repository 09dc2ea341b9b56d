import type { ActionFunctionArgs } from '@remix-run/node';
import { verifyKeyed } from '~/portal/crypto.server';
import { runPortalJobs } from '~/portal/jobs.server';

/**
 * POST /api/portal/jobs: runs the portal's jobs now (what `npm run jobs` calls from cron). The
 * caller proves it holds the signing secret: `Authorization: Bearer <jobsToken>` (see
 * scripts/portal-jobs.mjs). Anything else: 404, as if the route did not exist.
 */
export async function action({ request }: ActionFunctionArgs) {
  const token = /^Bearer (\S+)$/.exec(request.headers.get('Authorization') ?? '')?.[1];
  if (request.method !== 'POST' || !token || !verifyKeyed('portal-jobs', 'run', token))
    return new Response('Not found', { status: 404 });
  const report = await runPortalJobs();
  return Response.json(report, { headers: { 'Cache-Control': 'no-store' } });
}

export const loader = () => new Response('Not found', { status: 404 });
