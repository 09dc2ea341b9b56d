import type { LoaderFunctionArgs } from '@remix-run/node';
import { portalT } from '~/features/portal/t.server';
import { requestLocale } from '~/i18n';
import { creditNotePdf, requireClient } from '~/portal/service.server';

/**
 * /account/credit-notes/:creditNoteId/pdf (and /ar/…): the client’s own tax credit note as a PDF in the path's
 * language, downloaded as an attachment and never stored by caches.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await requireClient(request);
  const locale = requestLocale(request);
  const pdf = await creditNotePdf(session, params.creditNoteId ?? '', locale);
  if (pdf === 'busy')
    throw new Response((await portalT(locale))('invoice.pdfBusy'), {
      status: 429,
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'private, no-store',
        'Retry-After': '5',
      },
    });
  if (!pdf)
    throw new Response('Not found', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' },
    });
  return new Response(Uint8Array.from(pdf.body), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${pdf.filename}"`,
      'Content-Length': String(pdf.body.length),
      'Cache-Control': 'private, no-store',
    },
  });
}
