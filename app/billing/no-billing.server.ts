import { BillingError, type BillingProvider, type IssuedCreditNote, type SubscriptionView } from './types';

/**
 * No billing: a public site (SITE_URL not on loopback) without Stripe keys and without
 * BILLING=demo (app/lib/env.server.ts decides). It holds no one, finds no one and starts
 * nothing: the portal's sign-in still works and shows no subscription; /pricing offers each
 * package by consultation; the jobs renew nothing and the demo clients are not seeded.
 */
export class NoBilling implements BillingProvider {
  readonly kind = 'none' as const;

  private refuse(): never {
    throw new BillingError('unavailable', 'this site takes no payments (no Stripe keys, and it is public)');
  }

  async now() {
    return new Date();
  }
  async getCustomer() {
    return null;
  }
  async findCustomerByEmail() {
    return null;
  }
  async getSubscription() {
    return null;
  }
  async listInvoices() {
    return { invoices: [], hasMore: false };
  }
  async getInvoice() {
    return null;
  }
  async getInvoiceTax() {
    return null;
  }
  async listCreditNotes() {
    return [];
  }
  async getCreditNote() {
    return null;
  }
  async issueCreditNote(): Promise<IssuedCreditNote> {
    this.refuse();
  }
  async recentCreditNotes() {
    return [];
  }
  async getBillingDetails() {
    return null;
  }
  async setBillingDetails(): Promise<void> {
    this.refuse();
  }
  async changePlan(): Promise<SubscriptionView> {
    this.refuse();
  }
  async withdrawChange(): Promise<SubscriptionView> {
    this.refuse();
  }
  async cancel(): Promise<SubscriptionView> {
    this.refuse();
  }
  async resume(): Promise<SubscriptionView> {
    this.refuse();
  }
  async startCheckout(): Promise<{ url: string }> {
    this.refuse();
  }
  async listRenewing() {
    return [];
  }
}
