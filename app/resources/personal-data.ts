import type { LoaderFunctionArgs } from '@remix-run/node';
import { db } from '~/db/client.server';
import { buildPersonalData, personalDataFilename, personalDataJson } from '~/portal/personal-data.server';
import { requireClient } from '~/portal/service.server';

/**
 * /account/personal-data (and /ar/…): the signed-in client's own data as a JSON file
 * (app/portal/personal-data.server.ts, the same file the operator's `npm run personal-data`
 * writes), downloaded as an attachment and never stored by caches. Signed out: the sign-in page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireClient(request);
  const file = await buildPersonalData(await db(), session.account.email, new Date());
  const body = personalDataJson(file);
  return new Response(body, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${personalDataFilename(file)}"`,
      'Content-Length': String(Buffer.byteLength(body)),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
