import type { LoaderFunctionArgs } from '@remix-run/node';
import { creditNoteXml, requireClient } from '~/portal/service.server';
import { eInvoiceResponse } from './invoice-xml';

/**
 * /account/credit-notes/:creditNoteId/xml (and /ar/…): the client's own tax credit note as a PINT AE
 * e-invoice (a UBL 2.1 CreditNote naming its invoice), when the invoice had one. Otherwise, and for
 * another client's note, not found.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await requireClient(request);
  return eInvoiceResponse(await creditNoteXml(session, params.creditNoteId ?? ''));
}
