import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InvoiceStatus } from '~/billing/types';

/**
 * Keys the pages build at run time (template strings): status badges, sign-in errors, checkout labels, languages,
 * the subscription steps' titles.
 */
const DYNAMIC_KEYS = [
  'status.active',
  'status.cancelling',
  'status.past_due',
  'status.canceled',
  'verify.errors.wrongCode',
  'verify.errors.expired',
  'verify.errors.locked',
  'verify.errors.rateLimited',
  'checkout.email',
  'checkout.name',
  'checkout.company',
  'checkout.cardNumber',
  'checkout.expiry',
  'checkout.cvc',
  'languages.en',
  'languages.ar',
  'change.title',
  'cancel.title',
  'studioSignIn.errors.rateLimited',
  'studioSignIn.errors.expired',
];
const INVOICE_STATUSES: InvoiceStatus[] = ['paid', 'open', 'void', 'uncollectible'];

type Tree = { [key: string]: string | Tree };
const root = path.resolve(import.meta.dirname, '../../..');
const load = (locale: string) =>
  JSON.parse(readFileSync(path.join(root, 'public/locales', locale, 'portal.json'), 'utf8')) as Tree;
const en = load('en');
const ar = load('ar');

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(name, value);
    else for (const [k, v] of flatten(value, name)) out.set(k, v);
  }
  return out;
}
const flatEn = flatten(en);
const flatAr = flatten(ar);
const PLURAL = /_(zero|one|two|few|many|other)$/;
/** A key as t() is called with it: plural forms count as their base key. */
const has = (flat: Map<string, string>, key: string) =>
  flat.has(key) || [...flat.keys()].some((k) => k.replace(PLURAL, '') === key);
const vars = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const source = (file: string) => readFileSync(path.join(root, file), 'utf8');
const portalSources = [
  ...readdirSync(path.join(root, 'app/features/portal'))
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'))
    .map((f) => `app/features/portal/${f}`),
  'app/pages/account.tsx',
  'app/pages/account-verify.tsx',
  'app/pages/account-subscription.tsx',
  'app/pages/account-invoice.tsx',
  'app/pages/checkout.tsx',
  'app/pages/studio-sign-in.tsx',
];

describe('portal.json', () => {
  it('has the same keys in English and Arabic', () => {
    expect([...flatAr.keys()].sort()).toEqual([...flatEn.keys()].sort());
  });

  it('uses the same placeholders in both languages, and no empty text', () => {
    for (const [key, text] of flatEn) {
      expect(text.trim(), key).not.toBe('');
      expect(flatAr.get(key)!.trim(), key).not.toBe('');
      // Arabic plural forms may spell the number out (one, two) instead of {{count}}.
      if (PLURAL.test(key)) continue;
      expect(vars(flatAr.get(key)!), key).toEqual(vars(text));
    }
  });

  it('holds the texts the product specification fixes, word for word', () => {
    expect(flatEn.get('subscription.none')).toBe("You don't have an active subscription");
    expect(flatEn.get('cancel.title')).toBe('Are you sure?');
    expect(flatEn.get('invoices.error')).toBe('Could not load invoices. Please try again.');
    expect(flatEn.get('messages.cancelFailed')).toBe('Failed to cancel subscription');
    expect(['invoice', 'date', 'amount', 'status', 'actions'].map((c) => flatEn.get(`invoices.columns.${c}`))).toEqual([
      'Invoice',
      'Date',
      'Amount',
      'Status',
      'Actions',
    ]);
    expect(flatEn.get('invoices.view')).toBe('View invoice');
    expect(flatEn.get('invoices.download')).toBe('Download PDF');
    expect(flatEn.get('checkout.errors.declined')).toBe('Your card was declined. Try another card.');
  });

  it('has every key the portal server answers with (messages.*, checkout.errors.*)', () => {
    const server = ['app/portal/service.server.ts'].map(source).join('\n');
    const keys = new Set([...server.matchAll(/'((?:messages|checkout\.errors)\.[A-Za-z]+)'/g)].map((m) => m[1]));
    // completeCheckout maps a billing field to `checkout.errors.${field}`.
    for (const f of ['email', 'name', 'company', 'cardNumber', 'expiry', 'cvc']) keys.add(`checkout.errors.${f}`);
    expect(keys.size).toBeGreaterThan(10);
    for (const key of keys) {
      expect(has(flatEn, key), `en ${key}`).toBe(true);
      expect(has(flatAr, key), `ar ${key}`).toBe(true);
    }
  });

  it('has every key the portal pages ask for', () => {
    const used = new Set<string>(DYNAMIC_KEYS);
    for (const file of portalSources) {
      for (const m of source(file).matchAll(/\bt\(\s*'([A-Za-z]+(?:\.[A-Za-z_]+)+)'/g)) used.add(m[1]);
      for (const m of source(file).matchAll(
        /'((?:messages|signIn\.errors|verify\.errors|checkout\.errors)\.[A-Za-z]+)'/g,
      ))
        used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(80);
    const missing = [...used].filter((key) => !has(flatEn, key) || !has(flatAr, key));
    expect(missing).toEqual([]);
  });

  it('names every invoice status', () => {
    for (const status of INVOICE_STATUSES)
      expect(flatEn.has(`invoiceStatus.${status}`) && flatAr.has(`invoiceStatus.${status}`), status).toBe(true);
  });
});
