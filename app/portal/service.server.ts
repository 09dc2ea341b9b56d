/**
 * What the portal's routes call: sign-in, the client's session, the subscription and invoice
 * views and the actions on them. Routes call only this module (and `requireClient`), never
 * billing or the store directly. Every function that takes a `ClientSession` acts on that
 * client's own customer only.
 */
import { createHash } from 'node:crypto';
import { redirect } from '@remix-run/node';
import { billing, embeddedBilling, localizedPlans, stripeBilling, type LocalizedPlan } from '~/billing/billing.server';
import { formatBillingAmount } from '~/billing/format';
import { FORM_KEYS } from '~/features/forms/fields';
import { formText, readFormBody } from '~/features/forms/request.server';
import { eInvoiceEligibility, eInvoiceFilename, pintAeCreditNote, pintAeInvoice } from '~/billing/tax/pint-ae.server';
import { renderCreditNotePdf, renderInvoicePdf } from '~/billing/invoice-pdf.server';
import { creditNoteView, type CreditNoteView } from '~/billing/tax/credit-note-view';
import {
  countryName,
  countryOptions,
  parseBillingDetails,
  type BillingDetails,
  type BillingDetailsField,
} from '~/billing/tax/details';
import { taxInvoiceView, type TaxInvoiceView } from '~/billing/tax/view';
import {
  BillingError,
  isPlanKey,
  type CreditNoteSummary,
  type InvoiceView,
  type PlanKey,
  type SubscriptionView,
} from '~/billing/types';
import { intlLocale, localizePath, type Locale } from '~/i18n';
import { digitsOf, toAsciiDigits } from '~/lib/digits';
import { parseEmailAddress } from '~/lib/email';
import { env } from '~/lib/env.server';
import { WorkGate } from '~/lib/work-gate.server';
import { contentClient } from '~/sanity/client.server';
import { stripFallbackMarks } from '~/sanity/fallback';
import { SHELL_QUERY } from '~/sanity/queries/shell';
import { ensureCustomerAccount, normalizeEmail, updateAccount } from './accounts.server';
import { clientIp } from './crypto.server';
import { dispatchEngineEvents, subscriptionChangeMails } from './events.server';
import { portalReady } from './start.server';
import { consume, LIMITS } from './limits.server';
import { sendNow } from './mail-queue.server';
import {
  csrfMatches,
  endSession,
  readSession,
  signedInHintCookie,
  signInPath,
  staleSessionCookies,
} from './session.server';
import {
  pendingSignIn,
  requestCheckoutConfirmation,
  requestCode,
  verifyCode,
  type PendingPurpose,
} from './signin.server';
import { log as logger } from '~/lib/log.server';

export interface Account {
  customerId: string;
  email: string;
  name: string;
  company: string | null;
  /** Language of the client's emails (they can change it on /account). */
  locale: Locale;
}

export interface ClientSession {
  account: Account;
  /** Put in every portal form as the hidden field CSRF_FIELD. */
  csrfToken: string;
}

export const CSRF_FIELD = 'csrf';

/** A package as the portal shows it: localized name and features from the CMS, price formatted for the page. */
export type PlanOption = LocalizedPlan;

export type PortalMessage =
  /** i18n keys in public/locales/{en,ar}/portal.json, namespace "portal". */
  { kind: 'success' | 'error'; key: string; values?: Record<string, string> };

export type SignInRequestResult =
  | { status: 'sent'; headers: Headers /* sets the short-lived sign-in cookie that remembers the address */ }
  | { status: 'invalid-email' }
  | { status: 'rate-limited' };

export type SignInVerifyResult =
  | { status: 'signed-in'; headers: Headers /* Set-Cookie: the new session */; redirectTo: string }
  | { status: 'wrong-code'; triesLeft: number }
  | { status: 'malformed' /* not six digits: refused, no try spent */ }
  | { status: 'expired' /* no live code: expired, used, or too many tries */ }
  | { status: 'locked' /* the address's budget of typed codes is spent (up to 24 hours); links still work */ }
  | { status: 'rate-limited' };

export interface SubscriptionPageData {
  subscription: SubscriptionView | null;
  /** The subscription's plan, localized; null without a subscription. */
  currentPlan: PlanOption | null;
  /** The plan a scheduled change moves to, localized. */
  scheduledPlan: PlanOption | null;
  plans: PlanOption[];
  /** Monthly payment formatted (Intl, SGD, 2 decimals, page locale). */
  amount: string | null;
  invoices:
    | { status: 'ok'; rows: InvoiceRow[]; nextCursor: string | null; prevCursor: string | null; page: number }
    | { status: 'error' /* "Could not load invoices. Please try again." */ };
}

export interface InvoiceRow {
  id: string;
  number: string;
  /** ISO date; the component formats it with Intl in the page's locale. */
  created: string;
  amount: string;
  status: InvoiceView['status'];
  /** Where "View invoice" goes: the site's invoice page, in the page's language (both worlds). */
  viewUrl: string;
  /** Where "Download PDF" goes: the site's PDF, in the page's language (both worlds: Stripe's own PDF has no Arabic). */
  pdfUrl: string;
  /** The credit notes that correct this invoice, shown beside it. */
  creditNotes: CreditNoteRow[];
}

export const INVOICES_PER_PAGE = 12;

export interface CreditNoteRow {
  id: string;
  number: string;
  created: string;
  amount: string;
  /** The site's credit note page, in the page's language. */
  viewUrl: string;
  /** The site's PDF (embedded world), or Stripe's credit note PDF (hosted world). */
  pdfUrl: string;
}

export interface CreditNotePageData {
  note: CreditNoteSummary;
  amount: string;
  /** The invoice it corrects, on this site. */
  invoiceUrl: string;
  pdfUrl: string;
  /** The PINT AE e-invoice (a UBL CreditNote), when the invoice it corrects had one; else null. */
  xmlUrl: string | null;
  firm: InvoicePageData['firm'];
  /** The tax credit note as text (embedded world), or null for Stripe's, whose document is Stripe's PDF. */
  view: CreditNoteView | null;
}

export interface InvoicePageData {
  invoice: InvoiceView;
  planName: string;
  amount: string;
  customer: { name: string; company: string | null; email: string };
  firm: { name: string; email: string | null; offices: { city: string; country: string | null; address: string }[] };
  pdfUrl: string;
  /** The PINT AE e-invoice (XML), for a UAE supplier's invoice to a business client; else null. */
  xmlUrl: string | null;
  /** The tax invoice as text (from its snapshot), or null for an invoice from before tax invoices. */
  tax: TaxInvoiceView | null;
  /**
   * Stripe's invoice, the tax invoice in the hosted world: its tax as Stripe computed it, formatted
   * for the page, with Stripe's hosted page and PDF. Null elsewhere or without tax objects.
   */
  stripeTax: {
    customerName: string | null;
    customerLines: string[];
    taxIds: { type: string; value: string }[];
    net: string;
    taxes: { name: string; rate: string; amount: string; inclusive: boolean }[];
    tax: string;
    total: string;
    hostedUrl: string | null;
    pdfUrl: string | null;
  } | null;
}

export type SubscriptionAction =
  { intent: 'change'; plan: PlanKey } | { intent: 'withdraw' } | { intent: 'cancel' } | { intent: 'resume' };

export type SubscriptionActionResult =
  { ok: true; message: PortalMessage; subscription: SubscriptionView } | { ok: false; message: PortalMessage };

export interface CheckoutPageData {
  id: string;
  plan: PlanOption;
  amount: string;
  status: 'open' | 'complete' | 'expired';
  email: string | null;
  /** A signed-in visitor pays their own account at once; anyone else confirms their address by an emailed code. */
  signedIn: boolean;
  cancelUrl: string;
  /** Every country, named in the page's language, for the billing details' select. */
  countries: { code: string; name: string }[];
}

/** The checkout's own fields, and the billing details it asks for too (optional there, all or none). */
export type CheckoutField = 'email' | 'name' | 'company' | 'cardNumber' | 'expiry' | 'cvc' | BillingDetailsField;

export type CheckoutResult =
  | {
      ok: true;
      redirectTo: string /* /account/subscription?welcome=1 (localized) */;
      headers: Headers; /* signs the new client in */
    }
  | {
      ok: false;
      fieldErrors: Partial<Record<CheckoutField, string /* portal.json key */>>;
      formError: string | null; /* portal.json key */
    };

// ------------------------------------------------------------------------------ session

export async function getClient(request: Request): Promise<ClientSession | null> {
  const client = await readSession(request);
  if (!client) return null;
  const { customerId, email, name, company, locale } = client.account;
  return { account: { customerId, email, name, company, locale }, csrfToken: client.csrfToken };
}

/** Headers for an answer to a visitor found signed out: clears a dead session's cookie and the signed-in hint, if sent. */
export async function signedOutHeaders(request: Request): Promise<Headers> {
  const headers = new Headers();
  for (const cookie of await staleSessionCookies(request)) headers.append('Set-Cookie', cookie);
  return headers;
}

export async function requireClient(request: Request): Promise<ClientSession> {
  const session = await getClient(request);
  if (!session) {
    // A dead session (expired, or signed out on another device): its cookie and the hint go too.
    const headers = await signedOutHeaders(request);
    headers.set('Cache-Control', 'private, no-store');
    throw redirect(signInPath(request), { headers });
  }
  return session;
}

/**
 * Cross-site submissions are refused: a browser's Origin (or, without it, Sec-Fetch-Site) must
 * be this site; signed-in forms must also carry the session's CSRF token. Requests with neither
 * header come from no browser and cannot carry a victim's cookies for another site's benefit;
 * signed-in ones still need the token.
 */
export async function assertSafePost(request: Request, form: FormData, session: ClientSession | null): Promise<void> {
  if (!sameOrigin(request))
    throw new Response('Cross-site form submission refused', { status: 403, headers: { 'Cache-Control': 'no-store' } });
  if (session) {
    const client = await readSession(request);
    if (!client || !csrfMatches(client, form.get(CSRF_FIELD)))
      throw new Response('Invalid form token', { status: 403, headers: { 'Cache-Control': 'no-store' } });
  }
}

/** Whether a post comes from a page of this site: its Origin is this site's (scheme, host and port), or, without it, Sec-Fetch-Site says so. */
export function sameOrigin(request: Request): boolean {
  const origin = request.headers.get('Origin');
  const allowed = new Set([new URL(request.url).origin, new URL(env().siteUrl).origin]);
  if (origin) {
    if (origin === 'null') return false;
    try {
      return allowed.has(new URL(origin).origin);
    } catch {
      return false;
    }
  }
  const site = request.headers.get('Sec-Fetch-Site');
  return !site || site === 'same-origin' || site === 'none';
}

/**
 * The body of a portal form post: only the encodings a browser's form sends (urlencoded,
 * multipart); anything else is answered 415, a body that cannot be read 400, in the page's
 * language, before anything is looked at or stored.
 */
export async function readPostedForm(request: Request, locale: Locale): Promise<FormData> {
  const body = await readFormBody(request);
  if (body.ok) return body.form;
  throw new Response(formText(locale, FORM_KEYS.badRequest), {
    status: body.status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' },
  });
}

// ------------------------------------------------------------------------------ sign-in

export async function requestSignIn(request: Request, form: FormData, locale: Locale): Promise<SignInRequestResult> {
  // Right after a start, the demo clients' accounts may still be on their way in: wait for them
  // (bounded), so a code asked for at once finds its account.
  await portalReady(5_000);
  return requestCode(request, form, locale);
}

/** The address the last code went to, and whether it confirms a payment or signs in. */
export function pendingSignInEmail(request: Request): Promise<{ email: string; purpose: PendingPurpose } | null> {
  return pendingSignIn(request);
}

export async function verifySignIn(request: Request, form: FormData, locale: Locale): Promise<SignInVerifyResult> {
  return verifyCode(request, form, locale);
}

/** Ends this device's session (its row is deleted), or every session of the client with `everywhere`. */
export async function signOut(request: Request, options: { everywhere: boolean }): Promise<Headers> {
  const headers = new Headers({
    'Set-Cookie': await endSession(request, options),
    'Cache-Control': 'private, no-store',
  });
  headers.append('Set-Cookie', signedInHintCookie(false));
  return headers;
}

export async function updatePreferences(
  session: ClientSession,
  form: FormData,
): Promise<{ ok: boolean; message: PortalMessage }> {
  const locale = form.get('locale');
  if (locale !== 'en' && locale !== 'ar')
    return { ok: false, message: { kind: 'error', key: 'messages.invalidPreference' } };
  await updateAccount(session.account.customerId, { locale });
  return { ok: true, message: { kind: 'success', key: 'messages.preferencesSaved' } };
}

// ------------------------------------------------------------------------------ billing details

/** The billing details form's fields as typed (bounded), kept in the form after an error. */
export type BillingDetailsValues = Record<BillingDetailsField, string>;
const DETAIL_LIMITS: Record<BillingDetailsField, number> = {
  legalName: 200,
  address: 600,
  city: 100,
  postalCode: 20,
  country: 2,
  registrationNumber: 40,
};

/** The posted billing details fields as typed (a little past each limit, so that "too long" is told, not cut). */
function readDetailValues(form: FormData): BillingDetailsValues {
  return Object.fromEntries(
    (Object.keys(DETAIL_LIMITS) as BillingDetailsField[]).map((f) => {
      const v = form.get(f);
      return [f, typeof v === 'string' ? v.slice(0, DETAIL_LIMITS[f] + 100) : ''];
    }),
  ) as BillingDetailsValues;
}

/** What goes back into the form after a refusal. */
export function keptDetailValues(values: BillingDetailsValues): BillingDetailsValues {
  return Object.fromEntries(
    Object.entries(values).map(([f, v]) => [f, v.slice(0, DETAIL_LIMITS[f as BillingDetailsField] + 20)]),
  ) as BillingDetailsValues;
}

export async function billingDetailsPage(session: ClientSession, locale: Locale) {
  const details = await billing().getBillingDetails(session.account.customerId);
  return {
    details,
    countries: countryOptions(locale),
    /** The account's company or name, to start the legal name with when nothing was given yet. */
    suggestedName: session.account.company ?? session.account.name,
  };
}

/**
 * Saves the client's billing details for their future invoices. Bad input changes nothing and
 * says which field is wrong (keys of portal.json's billingDetails.errors).
 */
export async function saveBillingDetails(
  session: ClientSession,
  form: FormData,
): Promise<
  | { ok: true; message: PortalMessage }
  | {
      ok: false;
      message: PortalMessage;
      fieldErrors: Partial<Record<BillingDetailsField, string>>;
      values: BillingDetailsValues;
    }
> {
  const values = readDetailValues(form);
  const parsed = parseBillingDetails(values);
  const keep = keptDetailValues(values);
  if (!parsed.ok)
    return {
      ok: false,
      message: { kind: 'error', key: 'billingDetails.errors.summary' },
      fieldErrors: parsed.errors,
      values: keep,
    };
  try {
    await billing().setBillingDetails(session.account.customerId, parsed.details as BillingDetails);
  } catch (error) {
    if (!(error instanceof BillingError)) throw error;
    console.error(`[portal] billing details not saved: ${error.code} ${error.message}`);
    return {
      ok: false,
      message: {
        kind: 'error',
        key: error.code === 'invalid_request' ? 'billingDetails.errors.refused' : 'messages.unavailable',
      },
      fieldErrors: {},
      values: keep,
    };
  }
  return { ok: true, message: { kind: 'success', key: 'billingDetails.saved' } };
}

/**
 * Whether the client should be asked for their billing details: a client with billing (not on a
 * site without it) who has given none yet, such as a client from before they were asked. Never
 * blocks anything: their invoices are issued with what is known.
 */
async function needsBillingDetails(customerId: string): Promise<boolean> {
  const b = billing();
  if (b.kind === 'none') return false;
  try {
    return (await b.getBillingDetails(customerId)) === null;
  } catch {
    // A prompt is not worth failing a page for.
    return false;
  }
}

// ------------------------------------------------------------------------------ views

export async function accountOverview(session: ClientSession, locale: Locale) {
  const [subscription, plans, askDetails] = await Promise.all([
    billing().getSubscription(session.account.customerId),
    localizedPlans(locale),
    needsBillingDetails(session.account.customerId),
  ]);
  const plan = subscription ? (plans.find((p) => p.key === subscription.plan) ?? null) : null;
  return {
    account: session.account,
    subscription,
    plan,
    amount: subscription ? formatBillingAmount(subscription.amount, locale) : null,
    askDetails,
  };
}

/**
 * The billing history is paged by page number (`?invoices=3`): billing lists newest first with a
 * cursor, so page N is reached by walking N-1 pages of INVOICES_PER_PAGE (a client has about 12
 * invoices a year: a few requests at most). Anything that is not a page number is page 1.
 */
function parsePage(cursor: string | null): number {
  const n = cursor && /^\d{1,3}$/.test(cursor) ? Number(cursor) : 1;
  return Math.min(Math.max(n, 1), 500);
}

export async function subscriptionPage(
  session: ClientSession,
  locale: Locale,
  cursor: string | null,
): Promise<SubscriptionPageData> {
  const customerId = session.account.customerId;
  const [subscription, plans] = await Promise.all([billing().getSubscription(customerId), localizedPlans(locale)]);
  const find = (key: PlanKey | undefined) => (key ? plans.find((x) => x.key === key) : undefined) ?? null;
  let invoices: SubscriptionPageData['invoices'];
  try {
    const page = parsePage(cursor);
    let list = await billing().listInvoices(customerId, { limit: INVOICES_PER_PAGE });
    let reached = 1;
    while (reached < page && list.hasMore && list.invoices.length) {
      list = await billing().listInvoices(customerId, {
        limit: INVOICES_PER_PAGE,
        startingAfter: list.invoices.at(-1)!.id,
      });
      reached++;
    }
    // The notes beside their invoices; if they cannot be read the invoices still show.
    const notes = await billing()
      .listCreditNotes(
        customerId,
        list.invoices.map((inv) => inv.id),
      )
      .catch((error) => {
        logger.error({ event: 'portal.credit-notes-unavailable', err: error }, '[portal] could not load credit notes');
        return [] as CreditNoteSummary[];
      });
    invoices = {
      status: 'ok',
      rows: list.invoices.map((inv) =>
        invoiceRow(
          inv,
          locale,
          notes.filter((n) => n.invoiceId === inv.id),
        ),
      ),
      nextCursor: list.hasMore ? String(reached + 1) : null,
      prevCursor: reached > 1 ? String(reached - 1) : null,
      page: reached,
    };
  } catch (error) {
    logger.error(`[portal] could not load invoices: ${String(error)}`);
    invoices = { status: 'error' };
  }
  return {
    subscription,
    currentPlan: find(subscription?.plan),
    scheduledPlan: find(subscription?.scheduledChange?.plan),
    plans,
    amount: subscription ? formatBillingAmount(subscription.amount, locale) : null,
    invoices,
  };
}

function invoiceRow(inv: InvoiceView, locale: Locale, notes: CreditNoteSummary[]): InvoiceRow {
  const own = localizePath(`/account/invoices/${inv.id}`, locale);
  return {
    id: inv.id,
    number: inv.number,
    created: inv.created,
    amount: formatBillingAmount(inv.amount, locale),
    status: inv.status,
    viewUrl: own,
    pdfUrl: `${own}/pdf`,
    creditNotes: notes.map((n) => {
      const page = localizePath(`/account/credit-notes/${n.id}`, locale);
      return {
        id: n.id,
        number: n.number,
        created: n.created,
        amount: formatBillingAmount(n.amount, locale),
        viewUrl: page,
        pdfUrl: n.pdfUrl ?? `${page}/pdf`,
      };
    }),
  };
}

const FAILURE_KEYS: Record<SubscriptionAction['intent'], string> = {
  change: 'messages.changeFailed',
  withdraw: 'messages.withdrawFailed',
  cancel: 'messages.cancelFailed',
  resume: 'messages.resumeFailed',
};

/** `locale`: the page's language, for the message's plan name and date. */
export async function subscriptionAction(
  session: ClientSession,
  action: SubscriptionAction,
  locale: Locale = session.account.locale,
): Promise<SubscriptionActionResult> {
  const customerId = session.account.customerId;
  const b = billing();
  const current = await b.getSubscription(customerId).catch(() => null);
  if (!current) return { ok: false, message: { kind: 'error', key: FAILURE_KEYS[action.intent] } };
  const before: Partial<SubscriptionView> = {
    cancelAtPeriodEnd: current.cancelAtPeriodEnd,
    scheduledChange: current.scheduledChange,
  };
  let after: SubscriptionView;
  try {
    switch (action.intent) {
      case 'change':
        if (!isPlanKey(action.plan)) return { ok: false, message: { kind: 'error', key: FAILURE_KEYS.change } };
        after = await b.changePlan(customerId, current.id, action.plan);
        break;
      case 'withdraw':
        after = await b.withdrawChange(customerId, current.id);
        break;
      case 'cancel':
        after = await b.cancel(customerId, current.id);
        break;
      case 'resume':
        after = await b.resume(customerId, current.id);
        break;
    }
  } catch (error) {
    if (!(error instanceof BillingError)) logger.error(`[portal] ${action.intent} failed: ${String(error)}`);
    return { ok: false, message: { kind: 'error', key: FAILURE_KEYS[action.intent] } };
  }
  // The change is durable now (billing returned): queue its confirmation email, keyed to the
  // fact, so the billing event for the same change later queues nothing more.
  const keys = await subscriptionChangeMails(after, before).catch((error) => {
    logger.error(`[portal] could not queue the confirmation email: ${String(error)}`);
    return [] as string[];
  });
  for (const key of keys) void sendNow(key).catch((error) => logger.error(`[mail] ${String(error)}`));
  const date = (iso: string) =>
    new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));
  const planName = async (key: PlanKey) => (await localizedPlans(locale)).find((p) => p.key === key)?.name ?? key;
  switch (action.intent) {
    case 'change':
      return after.scheduledChange
        ? {
            ok: true,
            subscription: after,
            message: {
              kind: 'success',
              key: 'messages.changeScheduled',
              values: {
                plan: await planName(after.scheduledChange.plan),
                date: date(after.scheduledChange.effectiveAt),
              },
            },
          }
        : { ok: true, subscription: after, message: { kind: 'success', key: 'messages.changeWithdrawn' } };
    case 'withdraw':
      return { ok: true, subscription: after, message: { kind: 'success', key: 'messages.changeWithdrawn' } };
    case 'cancel':
      return {
        ok: true,
        subscription: after,
        message: { kind: 'success', key: 'messages.cancelled', values: { date: date(after.currentPeriodEnd) } },
      };
    case 'resume':
      return { ok: true, subscription: after, message: { kind: 'success', key: 'messages.resumed' } };
  }
}

async function firmDetails(locale: Locale): Promise<InvoicePageData['firm']> {
  const raw = await contentClient().fetch(SHELL_QUERY.query, { lang: locale }, { perspective: 'published' });
  const shell = SHELL_QUERY.schema.parse(locale === 'en' ? raw : stripFallbackMarks(raw).value);
  return {
    name: shell.settings.brandName,
    email: shell.settings.contactEmail,
    offices: shell.offices.map((o) => ({ city: o.city, country: o.country, address: o.address ?? '' })),
  };
}

export async function invoicePage(
  session: ClientSession,
  invoiceId: string,
  locale: Locale,
): Promise<InvoicePageData | null> {
  if (!/^[A-Za-z0-9_]{1,80}$/.test(invoiceId)) return null;
  const invoice = await billing().getInvoice(session.account.customerId, invoiceId);
  if (!invoice) return null;
  const [plans, firm, snapshot] = await Promise.all([
    localizedPlans(locale),
    firmDetails(locale),
    billing().getInvoiceTax(session.account.customerId, invoice.id),
  ]);
  const own = localizePath(`/account/invoices/${invoice.id}`, locale);
  return {
    invoice,
    planName: plans.find((p) => p.key === invoice.plan)?.name ?? invoice.plan ?? '',
    amount: formatBillingAmount(invoice.amount, locale),
    customer: { name: session.account.name, company: session.account.company, email: session.account.email },
    firm,
    pdfUrl: `${own}/pdf`,
    xmlUrl: eInvoiceEligibility(snapshot).ok ? `${own}/xml` : null,
    tax: snapshot ? taxInvoiceView(snapshot, invoice, locale) : null,
    stripeTax: stripeTaxView(invoice, locale),
  };
}

function stripeTaxView(invoice: InvoiceView, locale: Locale): InvoicePageData['stripeTax'] {
  const t = invoice.stripeTax;
  if (!t) return null;
  const money = (cents: number) => formatBillingAmount(cents, locale);
  const percent = new Intl.NumberFormat(intlLocale[locale], { style: 'percent', maximumFractionDigits: 2 });
  // Stripe prints the country as its code: the page names it in the page's language.
  const country = t.customerCountry ? countryName(t.customerCountry)[locale] : null;
  return {
    customerName: t.customerName,
    customerLines: [...t.customerAddress.filter((line) => line !== t.customerCountry), ...(country ? [country] : [])],
    taxIds: t.customerTaxIds,
    net: money(t.net),
    taxes: t.taxes.map((x) => ({
      name: x.name,
      rate: percent.format(x.percentage / 100),
      amount: money(x.amount),
      inclusive: x.inclusive,
    })),
    tax: money(t.tax),
    total: money(t.total),
    hostedUrl: invoice.hostedUrl,
    pdfUrl: invoice.pdfUrl,
  };
}

/**
 * PDF renders take a core for a while: two run at once in the process, sixteen more may wait,
 * and one client holds at most two places (a flood of downloads from one client is refused,
 * not queued in front of everyone else).
 */
const pdfRenders = new WorkGate({ concurrency: 2, maxWaiting: 16, perKey: 2 });

export async function invoicePdf(
  session: ClientSession,
  invoiceId: string,
  locale: Locale,
): Promise<{ body: Buffer; filename: string } | 'busy' | null> {
  const data = await invoicePage(session, invoiceId, locale);
  if (!data) return null;
  const rendered = await pdfRenders.run(session.account.customerId, () =>
    renderInvoicePdf({
      locale,
      invoice: data.invoice,
      planName: data.planName,
      customer: data.customer,
      firm: data.firm,
      tax: data.tax,
    }),
  );
  if (rendered.status === 'busy') return 'busy';
  const body = rendered.value;
  return {
    body,
    filename: `${data.invoice.number.replace(/[^A-Za-z0-9_-]/g, '_')}${locale === 'ar' ? '-ar' : ''}.pdf`,
  };
}

/**
 * The client's own invoice as a PINT AE e-invoice (docs/accounting.md, "E-invoices"), or null:
 * another client's invoice, an unknown one, or one that gets no e-invoice (not a UAE supplier's,
 * not to a business client, waiting for its rate, or from before tax invoices) all read the same.
 */
export async function invoiceXml(
  session: ClientSession,
  invoiceId: string,
): Promise<{ body: string; filename: string } | null> {
  if (!/^[A-Za-z0-9_]{1,80}$/.test(invoiceId)) return null;
  const customerId = session.account.customerId;
  const invoice = await billing().getInvoice(customerId, invoiceId);
  if (!invoice) return null;
  const snapshot = await billing().getInvoiceTax(customerId, invoice.id);
  if (!snapshot || !eInvoiceEligibility(snapshot).ok) return null;
  return { body: pintAeInvoice({ number: invoice.number, snapshot }), filename: eInvoiceFilename(invoice.number) };
}

/** One of the client's own credit notes (another client's, or none: null, so the route answers 404). */
export async function creditNotePage(
  session: ClientSession,
  creditNoteId: string,
  locale: Locale,
): Promise<CreditNotePageData | null> {
  if (!/^cn_[A-Za-z0-9]{1,80}$/.test(creditNoteId)) return null;
  const found = await billing().getCreditNote(session.account.customerId, creditNoteId);
  if (!found) return null;
  const own = localizePath(`/account/credit-notes/${found.note.id}`, locale);
  return {
    note: found.note,
    amount: formatBillingAmount(found.note.amount, locale),
    invoiceUrl: localizePath(`/account/invoices/${found.note.invoiceId}`, locale),
    pdfUrl: found.note.pdfUrl ?? `${own}/pdf`,
    xmlUrl: found.snapshot && eInvoiceEligibility(found.snapshot.invoice.tax).ok ? `${own}/xml` : null,
    firm: await firmDetails(locale),
    view: found.snapshot ? creditNoteView(found.snapshot, locale) : null,
  };
}

/**
 * The client's own credit note as a PINT AE e-invoice (a UBL CreditNote), or null as invoiceXml:
 * another client's, an unknown one, Stripe's (its document is Stripe's), or one whose invoice got
 * no e-invoice all read the same.
 */
export async function creditNoteXml(
  session: ClientSession,
  creditNoteId: string,
): Promise<{ body: string; filename: string } | null> {
  if (!/^cn_[A-Za-z0-9]{1,80}$/.test(creditNoteId)) return null;
  const found = await billing().getCreditNote(session.account.customerId, creditNoteId);
  if (!found?.snapshot || !eInvoiceEligibility(found.snapshot.invoice.tax).ok) return null;
  return { body: pintAeCreditNote(found.snapshot), filename: eInvoiceFilename(found.note.number) };
}

/** The credit note's PDF in the page's language (embedded world; Stripe's is Stripe's own): as invoicePdf. */
export async function creditNotePdf(
  session: ClientSession,
  creditNoteId: string,
  locale: Locale,
): Promise<{ body: Buffer; filename: string } | 'busy' | null> {
  const data = await creditNotePage(session, creditNoteId, locale);
  if (!data?.view) return null;
  const view = data.view;
  const rendered = await pdfRenders.run(session.account.customerId, () =>
    renderCreditNotePdf({ locale, firm: data.firm, note: view }),
  );
  if (rendered.status === 'busy') return 'busy';
  return {
    body: rendered.value,
    filename: `${data.note.number.replace(/[^A-Za-z0-9_-]/g, '_')}${locale === 'ar' ? '-ar' : ''}.pdf`,
  };
}

// ------------------------------------------------------------------------------ checkout

/** Thrown by startCheckout when the visitor's IP has started LIMITS.checkoutStartPerIp checkouts in the hour. */
export class TooManyCheckouts extends Error {
  constructor() {
    super('too many checkouts started from this IP');
  }
}

/**
 * Starts a checkout for the package. Refused with TooManyCheckouts, before anything is stored
 * or a Stripe session is made, once the visitor's IP has started its hourly number.
 */
export async function startCheckout(request: Request, plan: PlanKey, locale: Locale): Promise<{ url: string }> {
  if (!(await consume('checkout-start-ip', clientIp(request), LIMITS.checkoutStartPerIp))) throw new TooManyCheckouts();
  const session = await getClient(request);
  const site = env().siteUrl;
  return billing().startCheckout({
    plan,
    locale,
    successUrl: `${site}${localizePath('/account/subscription', locale)}?welcome=1`,
    cancelUrl: `${site}${localizePath('/pricing', locale)}`,
    visitor: createHash('sha256')
      .update(`${clientIp(request)}|${request.headers.get('User-Agent') ?? ''}`)
      .digest('hex'),
    ...(session ? { customerId: session.account.customerId, email: session.account.email } : {}),
  });
}

/**
 * The return from Stripe Checkout (`?session_id=cs_…` on the success address): when that session
 * is complete, the client's portal account exists at once, before the webhook arrives, so they
 * can sign in straight away. It never signs anyone in: the address is not a credential.
 */
export async function confirmCheckoutReturn(request: Request): Promise<void> {
  const sessionId = new URL(request.url).searchParams.get('session_id');
  const stripe = sessionId ? stripeBilling() : null;
  if (!stripe || !sessionId) return;
  try {
    const customer = await stripe.completedCheckout(sessionId);
    if (customer) await ensureCustomerAccount(customer);
  } catch (error) {
    logger.error(`[portal] could not read the checkout session: ${String(error)}`);
  }
}

/** The checkout page's data; the address a signed-in client started it with is shown only in that client's session. */
export async function checkoutPage(request: Request, id: string, locale: Locale): Promise<CheckoutPageData | null> {
  const engine = embeddedBilling();
  if (!engine || !/^cs_[A-Za-z0-9]{8,64}$/.test(id)) return null;
  const checkout = await engine.getCheckout(id);
  if (!checkout) return null;
  const [plans, session] = await Promise.all([localizedPlans(locale), getClient(request)]);
  const plan = plans.find((p) => p.key === checkout.plan);
  if (!plan) return null;
  return {
    id: checkout.id,
    plan,
    countries: countryOptions(locale),
    amount: formatBillingAmount(checkout.amount, locale),
    status: checkout.status,
    email: checkout.customerId && session?.account.customerId === checkout.customerId ? checkout.email : null,
    signedIn: Boolean(session),
    cancelUrl: localizePath('/pricing', locale),
  };
}

/** MM/YY or MM/YYYY, spaced or not ("12 / 2034"); Arabic-Indic and Persian digits are read as ASCII. */
function parseExpiry(value: string): { month: number; year: number } | null {
  const ascii = toAsciiDigits(value).replace(/\s+/g, '');
  const match = /^(\d{1,2})\/(\d{2}|\d{4})$/.exec(ascii);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

export async function completeCheckout(
  request: Request,
  id: string,
  form: FormData,
  locale: Locale,
): Promise<CheckoutResult> {
  const engine = embeddedBilling();
  if (!engine) return { ok: false, fieldErrors: {}, formError: 'checkout.errors.unavailable' };
  // Read as posted: never cut to a length (a longer value is refused with a message instead), and
  // the card's digits through the one reader of typed and pasted digits (app/lib/digits.ts).
  const text = (name: string) => {
    const v = form.get(name);
    // Drops control characters and bidirectional overrides from what goes on the invoice.
    return typeof v === 'string'
      ? v
          // eslint-disable-next-line no-control-regex
          .replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '')
          .trim()
      : '';
  };
  const email = text('email');
  const name = text('name');
  const company = text('company');
  const cardNumber = digitsOf(text('cardNumber'));
  const expiry = parseExpiry(text('expiry'));
  const cvc = digitsOf(text('cvc'));
  const fieldErrors: Partial<Record<CheckoutField, string>> = {};
  if (!parseEmailAddress(email)) fieldErrors.email = 'checkout.errors.email';
  if (!name) fieldErrors.name = 'checkout.errors.name';
  else if (name.length > 200) fieldErrors.name = 'checkout.errors.tooLong';
  if (company.length > 200) fieldErrors.company = 'checkout.errors.tooLong';
  if (!/^\d{12,19}$/.test(cardNumber)) fieldErrors.cardNumber = 'checkout.errors.cardNumber';
  if (!expiry) fieldErrors.expiry = 'checkout.errors.expiry';
  if (!/^\d{3,4}$/.test(cvc)) fieldErrors.cvc = 'checkout.errors.cvc';
  // The billing details are asked here but never required to pay (they can be given later in
  // the portal): left empty, none are recorded; begun, they are checked like the portal's form.
  const detailValues = readDetailValues(form);
  let billingDetails: BillingDetails | null = null;
  if (Object.values(detailValues).some((v) => v.trim())) {
    const parsed = parseBillingDetails(detailValues);
    if (parsed.ok) billingDetails = parsed.details;
    else Object.assign(fieldErrors, parsed.errors);
  }
  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors, formError: null };
  if (!(await consume('checkout-ip', clientIp(request), LIMITS.checkoutPerIp)))
    return { ok: false, fieldErrors: {}, formError: 'checkout.errors.rateLimited' };
  const checkout = await engine.getCheckout(id);
  if (!checkout) return { ok: false, fieldErrors: {}, formError: 'checkout.errors.expired' };
  // A finished checkout only shows its outcome (the page itself); it never signs anyone in.
  if (checkout.status !== 'open')
    return { ok: true, redirectTo: localizePath(`/checkout/${id}`, locale), headers: new Headers() };
  const input = {
    email,
    name,
    company: company || null,
    cardNumber,
    expMonth: expiry!.month,
    expYear: expiry!.year,
    cvc,
    billingDetails,
  };
  const session = await getClient(request);
  const welcome = `${localizePath('/account/subscription', locale)}?welcome=1`;
  try {
    // Started by a signed-in client: paid only in that client's session, into their account.
    if (checkout.customerId && session?.account.customerId !== checkout.customerId)
      return { ok: false, fieldErrors: {}, formError: 'checkout.errors.signInFirst' };
    // The signed-in client paying for their own account: their session proves who they are.
    if (checkout.customerId || (session && normalizeEmail(email) === session.account.email)) {
      await engine.completeCheckout(id, { ...input, allowExistingCustomer: true });
      await dispatchEngineEvents().catch((error) => logger.error(`[portal] events: ${String(error)}`));
      return { ok: true, redirectTo: welcome, headers: new Headers() };
    }
    // Anyone else: the card is checked now and the payment waits for the address to be
    // confirmed by the code emailed to it (the same answer for a client's address and a new one).
    const payment = await engine.checkPayment(id, input);
    const planName = (await localizedPlans(locale)).find((p) => p.key === payment.plan)?.name ?? payment.plan;
    const sent = await requestCheckoutConfirmation(
      request,
      {
        checkoutId: id,
        email: payment.email,
        name: payment.name,
        company: payment.company,
        card: payment.card,
        billingDetails,
      },
      planName,
      locale,
    );
    if (sent.status === 'rate-limited') return { ok: false, fieldErrors: {}, formError: 'checkout.errors.rateLimited' };
    return { ok: true, redirectTo: sent.redirectTo, headers: sent.headers };
  } catch (error) {
    if (error instanceof BillingError) {
      const field = (error as BillingError & { field?: string }).field;
      if (error.code === 'card_declined')
        return {
          ok: false,
          fieldErrors: { cardNumber: 'checkout.errors.declined' },
          formError: 'checkout.errors.declined',
        };
      if (error.code === 'invalid_request' && field) {
        const map: Record<string, CheckoutField> = {
          number: 'cardNumber',
          cardNumber: 'cardNumber',
          expiry: 'expiry',
          cvc: 'cvc',
          email: 'email',
        };
        const f = map[field] ?? 'cardNumber';
        return { ok: false, fieldErrors: { [f]: `checkout.errors.${f}` }, formError: null };
      }
      if (error.code === 'invalid_state')
        return { ok: false, fieldErrors: {}, formError: 'checkout.errors.alreadySubscribed' };
      if (error.code === 'customer_exists')
        return { ok: false, fieldErrors: {}, formError: 'checkout.errors.signInFirst' };
      if (error.code === 'not_found') return { ok: false, fieldErrors: {}, formError: 'checkout.errors.expired' };
    }
    logger.error(`[portal] checkout failed: ${String(error)}`);
    return { ok: false, fieldErrors: {}, formError: 'checkout.errors.unavailable' };
  }
}
