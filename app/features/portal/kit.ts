// What the client portal's pages (account, sign-in, subscription, invoice, checkout) share, for
// them to import from here: one chunk, which only those pages download (app/kit.ts says why).
export {
  BusyButton,
  CancelForm,
  ChangePlanForm,
  type Csrf,
  CsrfInput,
  IntentButton,
  usePendingIntent,
} from './ManageForms';
export { BILLING_DETAILS_FIELDS, BillingDetailsFields } from './BillingDetailsFields';
export { portalMeta } from './meta';
export { AmountList, TaxArticle, TaxDocumentPage, TaxFacts, TaxLines, TaxParty, taxTerm } from './TaxDocument';
export { PageHeader, PortalPage } from './PortalPage';
export { CodeField, describedBy, EmailField, FieldError, MessageBanner, type UiMessage, useFormatDate } from './shared';
export { InvoiceStatusBadge, SubscriptionStatusBadge, SubscriptionSummary } from './SubscriptionSummary';
export { card, dangerButton, hint, input, label, pageHeader, pageTitle, portalContainer, textLink } from './ui';
