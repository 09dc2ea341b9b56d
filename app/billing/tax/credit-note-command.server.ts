import { formatBillingAmount, formatBillingDate } from '../format';
import { BillingError, type BillingProvider } from '../types';
import { CreditNoteError } from './credit-note';

export const CREDIT_NOTE_USAGE = [
  'usage: npm run credit-note -- issue <invoice number> --reason "<brief explanation>"',
  '       npm run credit-note -- list',
  'e.g.   npm run credit-note -- issue BWB-2026-0007 --reason "Subscription cancelled in its first week; refunded"',
].join('\n');

/**
 * `npm run credit-note -- …` (scripts/credit-note.ts): what it prints and its exit code. 0: done
 * (or done before with the same reason: a retry changes nothing); 2: bad arguments or refused
 * (no such invoice, a waiting or pre-tax invoice, a second full credit with another reason);
 * 1: billing unavailable. The provider does the work, in one transaction (embedded) or one
 * idempotent Stripe request.
 */
export async function creditNoteCommand(
  provider: Pick<BillingProvider, 'issueCreditNote' | 'recentCreditNotes'>,
  args: string[],
): Promise<{ code: number; out: string }> {
  const [verb, ...rest] = args;
  const money = (cents: number) => formatBillingAmount(cents, 'en');
  if (verb === 'list' && rest.length === 0) {
    const notes = await provider.recentCreditNotes(50);
    if (!notes.length) return { code: 0, out: 'no credit notes issued\n' };
    return {
      code: 0,
      out: notes
        .map(
          (n) =>
            `${n.number}  ${formatBillingDate(n.created, 'en')}  credits ${n.invoiceNumber}  ${money(n.amount)}  ${n.reason ?? ''}`,
        )
        .join('\n')
        .concat('\n'),
    };
  }
  if (verb === 'issue') {
    const at = rest.indexOf('--reason');
    const reason = at >= 0 ? rest[at + 1] : undefined;
    const positional = rest.filter((_, i) => i !== at && i !== at + 1);
    if (positional.length !== 1 || reason === undefined) return { code: 2, out: `${CREDIT_NOTE_USAGE}\n` };
    const [invoiceNumber] = positional;
    try {
      const { note, created } = await provider.issueCreditNote(invoiceNumber, reason);
      if (created)
        return {
          code: 0,
          out: `issued: ${note.number} credits invoice ${note.invoiceNumber} in full (${money(note.amount)})\n`,
        };
      if ((note.reason ?? '').trim() === reason.trim())
        return { code: 0, out: `already issued: ${note.number} credits invoice ${note.invoiceNumber}; nothing done\n` };
      return {
        code: 2,
        out: `credit-note: refused: invoice ${note.invoiceNumber} is already credited in full by ${note.number} (reason: ${note.reason ?? 'none'}); a second credit note is not issued\n`,
      };
    } catch (error) {
      if (error instanceof CreditNoteError) return { code: 2, out: `credit-note: refused: ${error.message}\n` };
      if (error instanceof BillingError)
        return { code: error.code === 'unavailable' ? 1 : 2, out: `credit-note: ${error.message}\n` };
      throw error;
    }
  }
  return { code: 2, out: `${CREDIT_NOTE_USAGE}\n` };
}
