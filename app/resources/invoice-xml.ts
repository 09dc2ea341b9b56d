import type { LoaderFunctionArgs } from '@remix-run/node';
import { invoiceXml, requireClient } from '~/portal/service.server';

/**
 * /account/invoices/:invoiceId/xml (and /ar/…): the client's own invoice as a PINT AE e-invoice
 * (UBL 2.1 XML), downloaded as an attachment and never stored by caches. Another client's
 * invoice, and one that gets no e-invoice, are not found.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await requireClient(request);
  return eInvoiceResponse(await invoiceXml(session, params.invoiceId ?? ''));
}

/** An e-invoice (invoice or credit note) as a download, or a plain 404: what both XML routes answer. */
export function eInvoiceResponse(xml: { body: string; filename: string } | null): Response {
  if (!xml)
    throw new Response('Not found', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' },
    });
  const body = Buffer.from(xml.body, 'utf8');
  return new Response(body, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Content-Disposition': `attachment; filename="${xml.filename}"`,
      'Content-Length': String(body.length),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
