import type { LoaderFunctionArgs } from '@remix-run/node';
import { requestLocale } from '~/i18n';
import { pdfResponse } from '~/portal/pdf-response.server';
import { invoicePdf, requireClient } from '~/portal/service.server';

/**
 * /account/invoices/:invoiceId/pdf (and /ar/…): the client's own invoice as a PDF in the path's
 * language, downloaded as an attachment and never stored by caches.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await requireClient(request);
  const locale = requestLocale(request);
  return pdfResponse(await invoicePdf(session, params.invoiceId ?? '', locale), locale);
}
