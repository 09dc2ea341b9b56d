import type { LoaderFunctionArgs } from '@remix-run/node';
import { requestLocale } from '~/i18n';
import { creditNotePdf, requireClient } from '~/portal/service.server';
import { pdfResponse } from '~/portal/pdf-response.server';

/**
 * /account/credit-notes/:creditNoteId/pdf (and /ar/…): the client’s own tax credit note as a PDF in the path's
 * language, downloaded as an attachment and never stored by caches.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await requireClient(request);
  const locale = requestLocale(request);
  return pdfResponse(await creditNotePdf(session, params.creditNoteId ?? '', locale), locale);
}
