// The answer of both PDF routes (invoice, credit note). A server module of its own: exported from a
// route module it would be an export the browser build keeps, with its server imports (Vite refuses that).
import { portalT } from '~/features/portal/t.server';
import type { Locale } from '~/i18n';

/**
 * A rendered PDF (invoice or credit note) as a download; 429 with Retry-After while the client's
 * renders are busy; a plain 404 for nothing (another client's, or none): what both PDF routes answer.
 */
export async function pdfResponse(
  pdf: { body: Buffer; filename: string } | 'busy' | null,
  locale: Locale,
): Promise<Response> {
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
