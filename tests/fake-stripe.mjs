#!/usr/bin/env node
/**
 * A small, stateful stand-in for the parts of Stripe's API this site uses, for tests on a machine
 * without internet (the official SDK is pointed at it with STRIPE_API_BASE). It keeps Stripe's
 * rules that the adapter depends on, so a test against it fails where Stripe would refuse:
 *
 * - secret key auth; idempotency keys (same key: the first answer again, `Idempotent-Replayed`;
 *   same key with other parameters: 400 idempotency_error), form-encoded bodies with brackets;
 * - customers, Checkout Sessions in subscription mode with a hosted payment page (/pay/{id}) that
 *   takes Stripe's test cards (4242… succeeds, 4000 0000 0000 0002 is declined), subscriptions
 *   whose period lives on the items, subscription schedules (from_subscription, phases,
 *   end_behavior release, release), cancel_at_period_end refused while a schedule manages the
 *   subscription, invoices with numbers, hosted pages and PDFs; credit notes on open or paid
 *   invoices (never more than the invoice's total; lines by quantity or an amount; reason from
 *   Stripe's list; refund_amount/credit_amount/out_of_band_amount for the part already paid);
 *   invoice search by number;
 * - tax (as Stripe's API reference documents the objects): customers' `address` and tax IDs
 *   (`/v1/customers/{id}/tax_ids`, `tax_ids` when expanded), the account's own tax IDs
 *   (`/v1/tax_ids` with `owner[type]=self`), tax rates (`/v1/tax_rates`), Checkout's
 *   `billing_address_collection`, `tax_id_collection` (and the `customer_update` it requires for
 *   an existing customer), `subscription_data.default_tax_rates`, `automatic_tax`; a subscription's
 *   `default_tax_rates` and `invoice_settings.account_tax_ids`; invoices with `customer_name`,
 *   `customer_address`, `customer_tax_ids`, `account_tax_ids`, `total_excluding_tax`,
 *   `total_taxes` and each line's `taxes` (inclusive rates split the price, exclusive ones add to it);
 * - events sent to the webhook address signed as Stripe signs them (t=…,v1=HMAC-SHA256), in
 *   order, retried on failure;
 * - a clock for tests: POST /_fake/advance {"seconds": n} moves it and runs what falls due
 *   (phase changes, renewals with a paid invoice, ends of cancelled subscriptions).
 *   GET /_fake/events lists the events and their deliveries; POST /_fake/redeliver {"id"} sends
 *   one again (a duplicate delivery).
 *
 * Usage: node tests/fake-stripe.mjs --port 4010 --secret-key sk_test_x --webhook-url URL
 *          --webhook-secret whsec_x --price price_starter=95000 [--price …]
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';

const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const port = Number(arg('port', '4010'));
const secretKey = arg('secret-key', 'sk_test_fake');
const webhookUrl = arg('webhook-url', '');
const webhookSecret = arg('webhook-secret', 'whsec_fake');
const origin = `http://127.0.0.1:${port}`;

const state = {
  offset: 0,
  customers: new Map(),
  prices: new Map(),
  methods: new Map(),
  sessions: new Map(),
  subscriptions: new Map(),
  schedules: new Map(),
  invoices: new Map(),
  creditNotes: new Map(),
  taxRates: new Map(),
  /** Tax IDs by id: a customer's (`customer` set) or the account's (`owner.type` self). */
  taxIds: new Map(),
  events: [],
  idempotency: new Map(),
  invoiceCount: 0,
  seq: 0,
};
for (let i = 0; i < args.length; i++) {
  if (args[i] !== '--price') continue;
  const [id, cents] = args[i + 1].split('=');
  state.prices.set(id, {
    id,
    object: 'price',
    active: true,
    currency: 'sgd',
    unit_amount: Number(cents),
    recurring: { interval: 'month', interval_count: 1 },
    type: 'recurring',
  });
}

const now = () => Math.floor((Date.now() + state.offset * 1000) / 1000);
const newId = (prefix) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
/** Keeps creation order for lists within one second. */
const stamp = () => ({ created: now(), _seq: ++state.seq });
const strip = (value) => JSON.parse(JSON.stringify(value, (key, v) => (key.startsWith('_') ? undefined : v)));

/** One calendar month later, the day kept (clamped to the month's last day), as Stripe bills. */
function addMonth(seconds) {
  const d = new Date(seconds * 1000);
  const day = d.getUTCDate();
  const next = new Date(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()),
  );
  const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, last));
  return Math.floor(next.getTime() / 1000);
}

// ---------------------------------------------------------------------------- form bodies

/** `a[b][0][c]=1` → { a: { b: [ { c: '1' } ] } }, as the SDK encodes parameters. */
function parseForm(text) {
  const root = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = node[part] ??= {};
    });
  }
  const arrays = (v) => {
    if (v && typeof v === 'object') {
      const keys = Object.keys(v);
      const mapped = Object.fromEntries(keys.map((k) => [k, arrays(v[k])]));
      return keys.length && keys.every((k) => /^\d+$/.test(k))
        ? keys.sort((a, b) => a - b).map((k) => mapped[k])
        : mapped;
    }
    return v;
  };
  return arrays(root);
}

class ApiError extends Error {
  constructor(status, type, message, code) {
    super(message);
    Object.assign(this, { status, type, code });
  }
}
const missing = (what, id) =>
  new ApiError(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing');
const invalid = (message, code = 'parameter_invalid') => new ApiError(400, 'invalid_request_error', message, code);

const get = (map, what, id) => {
  const found = map.get(id);
  if (!found) throw missing(what, id);
  return found;
};

// ---------------------------------------------------------------------------- objects as the API shows them

function showSubscription(sub, expand = []) {
  const out = strip(sub);
  out.items.data = sub.items.data.map((item) => ({ ...strip(item), price: strip(state.prices.get(item.price)) }));
  if (
    expand.some((e) => e === 'default_payment_method' || e === 'data.default_payment_method') &&
    sub.default_payment_method
  ) {
    out.default_payment_method = strip(state.methods.get(sub.default_payment_method));
  }
  return out;
}
const showSchedule = (s) => strip(s);
const showInvoice = (inv) => strip(inv);
function showCustomer(c, expand = []) {
  const out = strip(c);
  if (expand.includes('tax_ids')) {
    const ids = [...state.taxIds.values()].filter((t) => t.customer === c.id);
    out.tax_ids = { object: 'list', url: `/v1/customers/${c.id}/tax_ids`, has_more: false, data: ids.map(strip) };
  }
  return out;
}
const showSession = (s) => strip(s);

function list(items, query, show, path) {
  const sorted = [...items].sort((a, b) => b.created - a.created || b._seq - a._seq);
  let start = 0;
  if (query.starting_after) {
    const at = sorted.findIndex((x) => x.id === query.starting_after);
    if (at < 0) throw missing('object', query.starting_after);
    start = at + 1;
  }
  const limit = Math.min(100, Math.max(1, Number(query.limit ?? 10)));
  const page = sorted.slice(start, start + limit);
  return { object: 'list', url: path, has_more: start + limit < sorted.length, data: page.map(show) };
}

// ---------------------------------------------------------------------------- events

let delivering = Promise.resolve();

function emit(type, object, previous) {
  const event = {
    id: newId('evt'),
    object: 'event',
    api_version: '2026-10-28.endive',
    created: now(),
    livemode: false,
    pending_webhooks: webhookUrl ? 1 : 0,
    type,
    data: { object: strip(object), ...(previous ? { previous_attributes: previous } : {}) },
    _deliveries: [],
  };
  state.events.push(event);
  delivering = delivering.then(() => deliver(event));
  return event;
}

function sign(payload) {
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', webhookSecret).update(`${t}.${payload}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

async function deliver(event, attempts = 4) {
  if (!webhookUrl) return;
  const payload = JSON.stringify(strip(event), null, 2);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': sign(payload) },
        body: payload,
        signal: AbortSignal.timeout(20_000),
      });
      event._deliveries.push({ status: res.status, at: new Date().toISOString() });
      if (res.ok) return;
    } catch (error) {
      event._deliveries.push({ error: String(error), at: new Date().toISOString() });
    }
    await new Promise((r) => setTimeout(r, 250 * attempt));
  }
}

// ---------------------------------------------------------------------------- tax

/** The tax ID types this fake checks (Stripe checks each type's format; these two the site uses). */
const TAX_ID_FORMATS = {
  ae_trn: /^\d{15}$/,
  sg_gst: /^(M\d{8}[A-Z]|M[A-Z0-9]\d{7}[A-Z0-9]|\d{8}[A-Z]|\d{9}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z])$/,
  sg_uen: /^(\d{8}[A-Z]|\d{9}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z])$/,
};
const TAX_ID_COUNTRY = { ae_trn: 'AE', sg_gst: 'SG', sg_uen: 'SG' };

function createTaxId(params, owner) {
  const type = params.type;
  const value = String(params.value ?? '');
  if (!TAX_ID_FORMATS[type])
    throw invalid(`Invalid value for type: ${type} (fake-stripe models ${Object.keys(TAX_ID_FORMATS)})`);
  if (!TAX_ID_FORMATS[type].test(value)) throw invalid(`Invalid value for ${type}.`, 'tax_id_invalid');
  const taxId = {
    id: newId('txi'),
    object: 'tax_id',
    country: TAX_ID_COUNTRY[type],
    customer: owner.customer ?? null,
    livemode: false,
    owner: owner.customer ? { type: 'customer', customer: owner.customer } : { type: 'self' },
    type,
    value,
    verification: { status: 'unavailable', verified_address: null, verified_name: null },
    ...stamp(),
  };
  state.taxIds.set(taxId.id, taxId);
  return taxId;
}

function createTaxRate(params) {
  if (params.display_name === undefined || params.percentage === undefined || params.inclusive === undefined)
    throw invalid('display_name, percentage and inclusive are required', 'parameter_missing');
  const percentage = Number(params.percentage);
  if (!(percentage >= 0 && percentage <= 100)) throw invalid('percentage must be between 0 and 100');
  const rate = {
    id: newId('txr'),
    object: 'tax_rate',
    active: params.active === undefined ? true : params.active === 'true',
    country: params.country ?? null,
    description: params.description ?? null,
    display_name: params.display_name,
    effective_percentage: percentage,
    inclusive: params.inclusive === 'true',
    jurisdiction: params.jurisdiction ?? null,
    jurisdiction_level: null,
    livemode: false,
    metadata: params.metadata ?? {},
    percentage,
    state: null,
    tax_type: params.tax_type ?? null,
    ...stamp(),
  };
  state.taxRates.set(rate.id, rate);
  return rate;
}

/** A line's taxes at the subscription's rates: inclusive rates are inside the amount, exclusive ones added. */
function lineTaxes(amount, rateIds) {
  const rates = (rateIds ?? []).map((id) => get(state.taxRates, 'tax_rate', id));
  const inclusive = rates.filter((r) => r.inclusive);
  const inclusivePercent = inclusive.reduce((sum, r) => sum + r.percentage, 0);
  const base = inclusivePercent ? Math.round((amount * 100) / (100 + inclusivePercent)) : amount;
  const taxes = rates.map((r) => ({
    amount: r.inclusive
      ? Math.round((amount * r.percentage) / (100 + inclusivePercent))
      : Math.round((base * r.percentage) / 100),
    tax_behavior: r.inclusive ? 'inclusive' : 'exclusive',
    tax_rate_details: { tax_rate: r.id },
    taxability_reason: r.percentage === 0 ? 'zero_rated' : 'standard_rated',
    taxable_amount: base,
    type: 'tax_rate_details',
  }));
  // Inclusive taxes were rounded each on its own: the net is what is left of the amount.
  const net = amount - taxes.filter((t) => t.tax_behavior === 'inclusive').reduce((sum, t) => sum + t.amount, 0);
  const added = taxes.filter((t) => t.tax_behavior === 'exclusive').reduce((sum, t) => sum + t.amount, 0);
  return { taxes, net, total: amount + added };
}

// ---------------------------------------------------------------------------- billing

function createInvoice(sub, { start, end, paid }) {
  const item = sub.items.data[0];
  const price = state.prices.get(item.price);
  const id = newId('in');
  const customer = state.customers.get(sub.customer);
  const amount = price.unit_amount * item.quantity;
  const { taxes, net, total } = lineTaxes(amount, sub.default_tax_rates);
  const invoice = {
    id,
    object: 'invoice',
    number: `FAKE-${String(++state.invoiceCount).padStart(4, '0')}`,
    customer: sub.customer,
    // What Stripe copies from the customer when it finalizes the invoice: later changes leave it as it is.
    customer_name: customer?.name ?? null,
    customer_email: customer?.email ?? null,
    customer_address: customer?.address ?? null,
    customer_tax_ids: [...state.taxIds.values()]
      .filter((t) => t.customer === sub.customer)
      .map((t) => ({ type: t.type, value: t.value })),
    account_tax_ids: [...(sub.invoice_settings?.account_tax_ids ?? [])],
    status: paid ? 'paid' : 'open',
    currency: 'sgd',
    subtotal: amount,
    subtotal_excluding_tax: net,
    total_excluding_tax: net,
    total_taxes: taxes,
    total,
    amount_due: total,
    amount_paid: paid ? total : 0,
    footer: customer?.invoice_settings?.footer ?? null,
    automatic_tax: { enabled: Boolean(sub.automatic_tax?.enabled), status: null, liability: null },
    period_start: start,
    period_end: end,
    hosted_invoice_url: `${origin}/invoice/${id}`,
    invoice_pdf: `${origin}/invoice/${id}/pdf`,
    parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
    lines: {
      object: 'list',
      data: [
        {
          id: newId('il'),
          object: 'line_item',
          amount,
          period: { start, end },
          taxes,
          pricing: { type: 'price_details', price_details: { price: price.id, product: `prod_${price.id}` } },
          quantity: item.quantity,
        },
      ],
    },
    ...stamp(),
  };
  state.invoices.set(id, invoice);
  sub.latest_invoice = id;
  return invoice;
}

function completeCheckout(session, form) {
  const digits = String(form.card ?? '').replace(/[\s-]/g, '');
  if (digits === '4000000000000002') return { declined: 'Your card was declined.' };
  if (digits !== '4242424242424242') return { declined: 'Your card number is invalid.' };
  const email = String(form.email ?? session.customer_email ?? '')
    .trim()
    .toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return { declined: 'Your email address is invalid.' };
  const name = String(form.name ?? '').trim() || email;
  // Checkout's billing address and tax ID, when the session asks for them.
  const field = (key) => String(form[key] ?? '').trim();
  const address =
    session.billing_address_collection === 'required' || field('country')
      ? {
          city: field('city') || null,
          country: field('country').toUpperCase() || null,
          line1: field('line1') || null,
          line2: field('line2') || null,
          postal_code: field('postal_code') || null,
          state: null,
        }
      : null;
  if (session.billing_address_collection === 'required' && (!address.line1 || !address.country))
    return { declined: 'Your billing address is incomplete.' };
  const taxIdType = field('tax_id_type');
  const taxIdValue = field('tax_id_value').replace(/[\s-]/g, '').toUpperCase();
  const businessName = field('business_name');
  if (taxIdValue && !session.tax_id_collection?.enabled) return { declined: 'This checkout does not collect tax IDs.' };
  if (taxIdValue && !(TAX_ID_FORMATS[taxIdType] && TAX_ID_FORMATS[taxIdType].test(taxIdValue)))
    return { declined: 'Your tax ID is invalid.' };
  if (taxIdValue && !businessName) return { declined: 'Enter the business name that goes with the tax ID.' };
  let customer = session.customer ? state.customers.get(session.customer) : null;
  if (!customer) {
    customer = {
      id: newId('cus'),
      object: 'customer',
      email,
      // With a tax ID, Stripe names the customer after the business.
      name: businessName || name,
      address,
      invoice_settings: { footer: null },
      metadata: {},
      preferred_locales: [session.locale === 'ar' ? 'ar' : 'en'],
      ...stamp(),
    };
    state.customers.set(customer.id, customer);
    emit('customer.created', customer);
  } else {
    // An existing customer is updated only as `customer_update` allows.
    if (address && session.customer_update?.address === 'auto') customer.address = address;
    if (businessName && session.customer_update?.name === 'auto') customer.name = businessName;
  }
  if (taxIdValue) createTaxId({ type: taxIdType, value: taxIdValue }, { customer: customer.id });
  const method = {
    id: newId('pm'),
    object: 'payment_method',
    type: 'card',
    card: { brand: 'visa', last4: digits.slice(-4), exp_month: 12, exp_year: 2034 },
    customer: customer.id,
  };
  state.methods.set(method.id, method);
  const start = now();
  const end = addMonth(start);
  const sub = {
    id: newId('sub'),
    object: 'subscription',
    customer: customer.id,
    status: 'active',
    cancel_at_period_end: false,
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    schedule: null,
    default_payment_method: method.id,
    metadata: { ...(session.subscription_data?.metadata ?? {}) },
    default_tax_rates: [...(session.subscription_data?.default_tax_rates ?? [])],
    automatic_tax: { enabled: Boolean(session.automatic_tax?.enabled), liability: null },
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: {
      object: 'list',
      data: [
        {
          id: newId('si'),
          object: 'subscription_item',
          price: session._price,
          quantity: 1,
          current_period_start: start,
          current_period_end: end,
        },
      ],
    },
    latest_invoice: null,
    ...stamp(),
  };
  state.subscriptions.set(sub.id, sub);
  const invoice = createInvoice(sub, { start, end, paid: true });
  const company = String(form.company ?? '').trim();
  Object.assign(session, {
    status: 'complete',
    payment_status: 'paid',
    customer: customer.id,
    subscription: sub.id,
    invoice: invoice.id,
    customer_details: {
      email,
      name,
      address,
      business_name: businessName || null,
      tax_exempt: 'none',
      tax_ids: taxIdValue ? [{ type: taxIdType, value: taxIdValue }] : [],
    },
    custom_fields: session.custom_fields.map((f) =>
      f.key === 'company' ? { ...f, text: { value: company || null } } : f,
    ),
  });
  emit('customer.subscription.created', showSubscription(sub));
  emit('invoice.paid', invoice);
  emit('checkout.session.completed', session);
  return { redirect: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) };
}

/** What falls due by the clock: schedule phases, renewals, ends. */
function runClock() {
  const t = now();
  for (const sub of state.subscriptions.values()) {
    for (let guard = 0; guard < 60 && sub.status !== 'canceled'; guard++) {
      const item = sub.items.data[0];
      if (item.current_period_end > t) break;
      const previousItems = { data: [{ ...strip(item), price: strip(state.prices.get(item.price)) }] };
      if (sub.cancel_at_period_end) {
        Object.assign(sub, { status: 'canceled', ended_at: item.current_period_end });
        emit('customer.subscription.deleted', showSubscription(sub));
        break;
      }
      const schedule = sub.schedule ? state.schedules.get(sub.schedule) : null;
      const start = item.current_period_end;
      let price = item.price;
      if (schedule) {
        const phase = schedule.phases.find((p) => p.start_date === start);
        if (phase) {
          price = phase.items[0].price;
          schedule.current_phase = { start_date: phase.start_date, end_date: phase.end_date };
        } else if (schedule.phases.at(-1).end_date <= start && schedule.end_behavior === 'release') {
          Object.assign(schedule, {
            status: 'released',
            released_at: start,
            released_subscription: sub.id,
            subscription: null,
            current_phase: null,
          });
          sub.schedule = null;
          emit('subscription_schedule.released', schedule);
        }
      }
      Object.assign(item, { price, current_period_start: start, current_period_end: addMonth(start) });
      const invoice = createInvoice(sub, { start, end: item.current_period_end, paid: true });
      emit('invoice.paid', invoice);
      emit('customer.subscription.updated', showSubscription(sub), { items: previousItems });
      if (
        schedule &&
        schedule.status === 'active' &&
        schedule.phases.at(-1).end_date <= item.current_period_start &&
        schedule.end_behavior === 'release'
      ) {
        Object.assign(schedule, {
          status: 'released',
          released_at: start,
          released_subscription: sub.id,
          subscription: null,
          current_phase: null,
        });
        sub.schedule = null;
        emit('subscription_schedule.released', schedule);
      }
    }
  }
}

// ---------------------------------------------------------------------------- API

function expandOf(params) {
  const e = params.expand;
  return Array.isArray(e) ? e : e ? [e] : [];
}

function updateSubscription(sub, params) {
  const previous = {};
  if ('cancel_at_period_end' in params) {
    const flag = params.cancel_at_period_end === 'true';
    if (sub.status === 'canceled') throw invalid('A canceled subscription can only update its metadata.');
    if (sub.schedule && state.schedules.get(sub.schedule)?.status === 'active') {
      throw invalid(
        'The subscription is managed by the subscription schedule `' +
          sub.schedule +
          '`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.',
      );
    }
    if (flag !== sub.cancel_at_period_end) {
      previous.cancel_at_period_end = sub.cancel_at_period_end;
      previous.canceled_at = sub.canceled_at;
      previous.cancel_at = sub.cancel_at;
      sub.cancel_at_period_end = flag;
      sub.canceled_at = flag ? now() : null;
      sub.cancel_at = flag ? sub.items.data[0].current_period_end : null;
    }
  }
  if ('default_tax_rates' in params) {
    const ids = Array.isArray(params.default_tax_rates) ? params.default_tax_rates : [];
    for (const id of ids) get(state.taxRates, 'tax_rate', id);
    previous.default_tax_rates = sub.default_tax_rates;
    sub.default_tax_rates = ids;
  }
  if (params.invoice_settings && 'account_tax_ids' in params.invoice_settings) {
    const raw = params.invoice_settings.account_tax_ids;
    const ids = Array.isArray(raw) ? raw : [];
    for (const id of ids) {
      const taxId = get(state.taxIds, 'tax_id', id);
      if (taxId.owner.type !== 'self') throw invalid(`${id} is not one of the account's tax IDs`);
    }
    previous.invoice_settings = { ...sub.invoice_settings };
    sub.invoice_settings = { ...sub.invoice_settings, account_tax_ids: ids.length ? ids : null };
  }
  if (params.metadata) {
    previous.metadata = { ...sub.metadata };
    sub.metadata = { ...sub.metadata, ...params.metadata };
    for (const [k, v] of Object.entries(sub.metadata)) if (v === '') delete sub.metadata[k];
  }
  if (Object.keys(previous).length) emit('customer.subscription.updated', showSubscription(sub), previous);
  return showSubscription(sub, expandOf(params));
}

function createSchedule(params) {
  const sub = get(state.subscriptions, 'subscription', params.from_subscription);
  if (sub.status === 'canceled') throw invalid('You cannot create a schedule from a canceled subscription.');
  if (sub.schedule)
    throw invalid(`You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`);
  const item = sub.items.data[0];
  const schedule = {
    id: newId('sub_sched'),
    object: 'subscription_schedule',
    customer: sub.customer,
    subscription: sub.id,
    status: 'active',
    end_behavior: 'release',
    released_at: null,
    released_subscription: null,
    metadata: {},
    current_phase: { start_date: item.current_period_start, end_date: item.current_period_end },
    phases: [
      {
        start_date: item.current_period_start,
        end_date: item.current_period_end,
        items: [{ price: item.price, quantity: item.quantity }],
        proration_behavior: 'create_prorations',
        metadata: {},
      },
    ],
    ...stamp(),
  };
  state.schedules.set(schedule.id, schedule);
  sub.schedule = schedule.id;
  emit('subscription_schedule.created', schedule);
  return showSchedule(schedule);
}

function updateSchedule(schedule, params) {
  if (schedule.status !== 'active' && schedule.status !== 'not_started')
    throw invalid(`You cannot update a subscription schedule that is currently in the \`${schedule.status}\` status.`);
  if (params.end_behavior) schedule.end_behavior = params.end_behavior;
  if (params.metadata) schedule.metadata = { ...schedule.metadata, ...params.metadata };
  if (params.phases) {
    const phases = Array.isArray(params.phases) ? params.phases : [];
    if (!phases.length) throw invalid('phases must not be empty');
    const first = phases[0];
    if (Number(first.start_date) !== schedule.current_phase.start_date)
      throw invalid('You can not modify the start date of the current phase.');
    let cursor = Number(first.start_date);
    schedule.phases = phases.map((p, i) => {
      const items = (Array.isArray(p.items) ? p.items : []).map((it) => {
        if (!state.prices.has(it.price)) throw missing('price', it.price);
        return { price: it.price, quantity: Number(it.quantity ?? 1) };
      });
      if (!items.length) throw invalid(`phases[${i}][items] must not be empty`);
      const start = i === 0 ? cursor : cursor;
      let end;
      if (p.end_date) end = Number(p.end_date);
      else if (p.duration)
        end = Array.from({ length: Number(p.duration.interval_count ?? 1) }).reduce((t) => addMonth(t), start);
      else end = addMonth(start);
      if (end <= start) throw invalid(`phases[${i}][end_date] must be after its start`);
      cursor = end;
      return {
        start_date: start,
        end_date: end,
        items,
        proration_behavior: p.proration_behavior ?? params.proration_behavior ?? 'create_prorations',
        metadata: p.metadata ?? {},
      };
    });
    // The current phase's price is the subscription's price now.
    const sub = state.subscriptions.get(schedule.subscription);
    if (sub && sub.items.data[0].price !== schedule.phases[0].items[0].price) {
      if ((params.proration_behavior ?? schedule.phases[0].proration_behavior) !== 'none')
        throw invalid('fake-stripe: a price change now would prorate; this product never does it');
      sub.items.data[0].price = schedule.phases[0].items[0].price;
    }
    schedule.current_phase = { start_date: schedule.phases[0].start_date, end_date: schedule.phases[0].end_date };
  }
  emit('subscription_schedule.updated', schedule);
  return showSchedule(schedule);
}

function releaseSchedule(schedule) {
  if (schedule.status !== 'active' && schedule.status !== 'not_started')
    throw invalid(`You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status.`);
  const sub = state.subscriptions.get(schedule.subscription);
  Object.assign(schedule, {
    status: 'released',
    released_at: now(),
    released_subscription: schedule.subscription,
    subscription: null,
    current_phase: null,
  });
  if (sub) sub.schedule = null;
  emit('subscription_schedule.released', schedule);
  return showSchedule(schedule);
}

function createSession(params) {
  if (params.mode !== 'subscription') throw invalid('fake-stripe: only subscription mode');
  const lineItems = Array.isArray(params.line_items) ? params.line_items : [];
  const price = lineItems[0]?.price;
  if (!price || !state.prices.has(price)) throw missing('price', price);
  if (!params.success_url || !params.cancel_url) throw invalid('success_url and cancel_url are required');
  if (params.customer) get(state.customers, 'customer', params.customer);
  if (params.tax_id_collection?.enabled === 'true' && params.customer && params.customer_update?.name !== 'auto')
    throw invalid('tax_id_collection requires customer_update[name] to be `auto` when a customer is given.');
  if (params.automatic_tax?.enabled === 'true' && params.customer && params.customer_update?.address !== 'auto')
    throw invalid('automatic_tax requires customer_update[address] to be `auto` when a customer is given.');
  for (const rate of params.subscription_data?.default_tax_rates ?? []) get(state.taxRates, 'tax_rate', rate);
  const id = newId('cs_test');
  const session = {
    id,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'open',
    payment_status: 'unpaid',
    url: `${origin}/pay/${id}`,
    success_url: params.success_url,
    cancel_url: params.cancel_url,
    locale: params.locale ?? 'auto',
    customer: params.customer ?? null,
    customer_email: params.customer_email ?? null,
    customer_details: null,
    metadata: params.metadata ?? {},
    subscription_data: params.subscription_data ?? {},
    billing_address_collection: params.billing_address_collection ?? 'auto',
    tax_id_collection: { enabled: params.tax_id_collection?.enabled === 'true' },
    automatic_tax: { enabled: params.automatic_tax?.enabled === 'true', liability: null, status: null },
    customer_update: params.customer_update ?? null,
    custom_fields: (Array.isArray(params.custom_fields) ? params.custom_fields : []).map((f) => ({
      key: f.key,
      label: f.label,
      type: f.type,
      optional: f.optional === 'true',
      text: { value: null },
    })),
    subscription: null,
    invoice: null,
    expires_at: now() + 24 * 3600,
    _price: price,
    ...stamp(),
  };
  state.sessions.set(id, session);
  return showSession(session);
}

// ---------------------------------------------------------------------------- credit notes

const CREDIT_NOTE_REASONS = ['duplicate', 'fraudulent', 'order_change', 'product_unsatisfactory'];

/** Stripe's credit note object: its invoice expanded when asked. */
function showCreditNote(cn, expand = []) {
  const out = strip(cn);
  if (expand.some((e) => e === 'invoice' || e === 'data.invoice'))
    out.invoice = showInvoice(state.invoices.get(cn.invoice));
  return out;
}

/**
 * POST /v1/credit_notes, as Stripe's API reference documents it: a finalized (open or paid)
 * invoice; `lines` (invoice_line_item by quantity or amount, or custom_line_item) or `amount`;
 * the total of the invoice's credit notes never above its total. The note first reduces what is
 * still due (pre_payment_amount); the rest (post_payment_amount) must be split between
 * refund_amount, credit_amount and out_of_band_amount (all of it to the customer's balance when
 * none is given).
 */
function createCreditNote(params) {
  const invoice = get(state.invoices, 'invoice', params.invoice);
  if (invoice.status !== 'open' && invoice.status !== 'paid')
    throw invalid(
      `You can only create credit notes for finalized invoices that are open or paid (this one is ${invoice.status}).`,
    );
  if (params.reason !== undefined && !CREDIT_NOTE_REASONS.includes(params.reason))
    throw invalid(`Invalid reason: must be one of ${CREDIT_NOTE_REASONS.join(', ')}`);
  let amount = 0;
  const lines = [];
  if (Array.isArray(params.lines) && params.lines.length) {
    for (const line of params.lines) {
      if (line.type === 'invoice_line_item') {
        const item = invoice.lines.data.find((l) => l.id === line.invoice_line_item);
        if (!item) throw missing('invoice line item', line.invoice_line_item);
        const value =
          line.amount !== undefined
            ? Number(line.amount)
            : Math.round((item.amount * Number(line.quantity ?? item.quantity)) / item.quantity);
        amount += value;
        lines.push({
          id: newId('cnli'),
          object: 'credit_note_line_item',
          type: 'invoice_line_item',
          invoice_line_item: item.id,
          quantity: Number(line.quantity ?? item.quantity),
          amount: value,
        });
      } else if (line.type === 'custom_line_item') {
        const value = Number(line.unit_amount ?? 0) * Number(line.quantity ?? 1);
        amount += value;
        lines.push({
          id: newId('cnli'),
          object: 'credit_note_line_item',
          type: 'custom_line_item',
          description: line.description ?? null,
          quantity: Number(line.quantity ?? 1),
          amount: value,
        });
      } else throw invalid(`Invalid line type: ${line.type}`);
    }
  } else if (params.amount !== undefined) amount = Number(params.amount);
  else throw invalid('One of `amount`, `lines`, or `shipping_cost` must be provided.', 'parameter_missing');
  if (!Number.isInteger(amount) || amount <= 0) throw invalid('The credit note amount must be positive.');
  const credited = [...state.creditNotes.values()]
    .filter((cn) => cn.invoice === invoice.id && cn.status !== 'void')
    .reduce((sum, cn) => sum + cn.total, 0);
  if (credited + amount > invoice.total)
    throw invalid(
      `The credit note amount (${amount}) exceeds the invoice's remaining creditable amount (${invoice.total - credited}).`,
    );
  const pre = Math.min(amount, invoice.amount_remaining ?? invoice.amount_due - invoice.amount_paid);
  const post = amount - pre;
  const refund = Number(params.refund_amount ?? 0);
  const credit = Number(params.credit_amount ?? 0);
  const outOfBand = Number(params.out_of_band_amount ?? 0);
  const given = ['refund_amount', 'credit_amount', 'out_of_band_amount'].some((k) => params[k] !== undefined);
  if (given && refund + credit + outOfBand !== post)
    throw invalid(
      `The sum of credit amount, refund amount and out of band amount (${refund + credit + outOfBand}) must equal the credit note's post payment amount (${post}).`,
    );
  // The invoice's taxes, credited in proportion (a full credit: all of them).
  const share = (v) => Math.round((v * amount) / invoice.total);
  const taxes = (invoice.total_taxes ?? []).map((t) => ({
    ...t,
    amount: share(t.amount),
    taxable_amount: t.taxable_amount == null ? null : share(t.taxable_amount),
  }));
  const taxTotal = taxes.reduce((sum, t) => sum + t.amount, 0);
  const count = [...state.creditNotes.values()].filter((cn) => cn.invoice === invoice.id).length + 1;
  const id = newId('cn');
  const cn = {
    id,
    object: 'credit_note',
    number: `${invoice.number}-CN-${String(count).padStart(2, '0')}`,
    invoice: invoice.id,
    customer: invoice.customer,
    currency: invoice.currency,
    amount,
    amount_shipping: 0,
    subtotal: amount - taxTotal,
    subtotal_excluding_tax: amount - taxTotal,
    total: amount,
    total_excluding_tax: amount - taxTotal,
    total_taxes: taxes,
    discount_amount: 0,
    discount_amounts: [],
    pretax_credit_amounts: [],
    pre_payment_amount: pre,
    post_payment_amount: post,
    out_of_band_amount: outOfBand || null,
    refunds: refund
      ? [{ amount_refunded: refund, refund: newId('re'), type: 'refund', payment_record_refund: null }]
      : [],
    customer_balance_transaction: post && !given ? newId('cbtxn') : credit ? newId('cbtxn') : null,
    type: pre && post ? 'mixed' : post ? 'post_payment' : 'pre_payment',
    reason: params.reason ?? null,
    memo: params.memo ?? null,
    metadata: params.metadata ?? {},
    status: 'issued',
    effective_at: now(),
    voided_at: null,
    livemode: false,
    shipping_cost: null,
    pdf: `${origin}/credit_note/${id}/pdf`,
    lines: { object: 'list', data: lines, has_more: false, url: `/v1/credit_notes/${id}/lines` },
    ...stamp(),
  };
  state.creditNotes.set(id, cn);
  if (pre) {
    invoice.amount_due = Math.max(0, invoice.amount_due - pre);
    invoice.amount_remaining = Math.max(0, (invoice.amount_remaining ?? invoice.amount_due) - pre);
    invoice.pre_payment_credit_notes_amount = (invoice.pre_payment_credit_notes_amount ?? 0) + pre;
  }
  if (post) invoice.post_payment_credit_notes_amount = (invoice.post_payment_credit_notes_amount ?? 0) + post;
  return showCreditNote(cn, expandOf(params));
}

function route(method, path, params) {
  let m;
  if (method === 'GET' && (m = path.match(/^\/v1\/customers\/([^/]+)$/)))
    return showCustomer(get(state.customers, 'customer', m[1]), expandOf(params));
  if (method === 'POST' && (m = path.match(/^\/v1\/customers\/([^/]+)$/))) {
    const c = get(state.customers, 'customer', m[1]);
    if (params.metadata) {
      c.metadata = { ...c.metadata, ...params.metadata };
      for (const [k, v] of Object.entries(c.metadata)) if (v === '') delete c.metadata[k];
    }
    if (params.preferred_locales) c.preferred_locales = params.preferred_locales;
    if (params.name) c.name = params.name;
    if ('address' in params) {
      const a = params.address;
      if (a && typeof a === 'object' && a.country && !/^[A-Z]{2}$/.test(a.country))
        throw invalid('address[country] must be a two-letter ISO code');
      c.address =
        a && typeof a === 'object'
          ? {
              city: a.city || null,
              country: a.country || null,
              line1: a.line1 || null,
              line2: a.line2 || null,
              postal_code: a.postal_code || null,
              state: a.state || null,
            }
          : null;
    }
    if (params.invoice_settings && 'footer' in params.invoice_settings)
      c.invoice_settings = { ...c.invoice_settings, footer: params.invoice_settings.footer || null };
    emit('customer.updated', c);
    return showCustomer(c, expandOf(params));
  }
  if ((m = path.match(/^\/v1\/customers\/([^/]+)\/tax_ids(?:\/([^/]+))?$/))) {
    const c = get(state.customers, 'customer', m[1]);
    const own = [...state.taxIds.values()].filter((t) => t.customer === c.id);
    if (method === 'GET' && !m[2]) return list(own, params, strip, path);
    if (method === 'POST' && !m[2]) return strip(createTaxId(params, { customer: c.id }));
    const taxId = own.find((t) => t.id === m[2]);
    if (!taxId) throw missing('tax_id', m[2]);
    if (method === 'GET') return strip(taxId);
    if (method === 'DELETE') {
      state.taxIds.delete(taxId.id);
      return { id: taxId.id, object: 'tax_id', deleted: true };
    }
  }
  if (method === 'GET' && path === '/v1/tax_ids') {
    const selfOwned = [...state.taxIds.values()].filter((t) => t.owner.type === 'self');
    return list(params.owner?.type === 'self' ? selfOwned : [], params, strip, path);
  }
  if (method === 'GET' && (m = path.match(/^\/v1\/tax_ids\/([^/]+)$/))) return strip(get(state.taxIds, 'tax_id', m[1]));
  if (method === 'POST' && path === '/v1/tax_ids') {
    if (params.owner?.type !== 'self') throw invalid('fake-stripe: only owner[type]=self');
    return strip(createTaxId(params, {}));
  }
  if (method === 'GET' && path === '/v1/tax_rates') {
    let rates = [...state.taxRates.values()];
    if (params.active !== undefined) rates = rates.filter((r) => r.active === (params.active === 'true'));
    return list(rates, params, strip, path);
  }
  if (method === 'POST' && path === '/v1/tax_rates') return strip(createTaxRate(params));
  if (method === 'GET' && (m = path.match(/^\/v1\/tax_rates\/([^/]+)$/)))
    return strip(get(state.taxRates, 'tax_rate', m[1]));
  if (method === 'GET' && path === '/v1/customers') {
    const email = params.email?.toLowerCase();
    return list(
      [...state.customers.values()].filter((c) => !email || c.email === email),
      params,
      showCustomer,
      path,
    );
  }
  if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(params);
  if (method === 'GET' && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/)))
    return showSession(get(state.sessions, 'checkout.session', m[1]));
  if (method === 'GET' && path === '/v1/subscriptions') {
    let subs = [...state.subscriptions.values()];
    if (params.customer) subs = subs.filter((s) => s.customer === params.customer);
    const status = params.status ?? 'active';
    if (status !== 'all')
      subs = subs.filter((s) =>
        status === 'active' ? s.status === 'active' || s.status === 'trialing' : s.status === status,
      );
    else subs = subs.filter((s) => s.status !== 'incomplete_expired');
    const lte = params.current_period_end?.lte;
    if (lte) subs = subs.filter((s) => s.items.data[0].current_period_end <= Number(lte));
    return list(subs, params, (s) => showSubscription(s, expandOf(params)), path);
  }
  if (method === 'GET' && (m = path.match(/^\/v1\/subscriptions\/([^/]+)$/)))
    return showSubscription(get(state.subscriptions, 'subscription', m[1]), expandOf(params));
  if (method === 'POST' && (m = path.match(/^\/v1\/subscriptions\/([^/]+)$/)))
    return updateSubscription(get(state.subscriptions, 'subscription', m[1]), params);
  if (method === 'POST' && path === '/v1/subscription_schedules') return createSchedule(params);
  if (method === 'GET' && (m = path.match(/^\/v1\/subscription_schedules\/([^/]+)$/)))
    return showSchedule(get(state.schedules, 'subscription_schedule', m[1]));
  if (method === 'POST' && (m = path.match(/^\/v1\/subscription_schedules\/([^/]+)\/release$/)))
    return releaseSchedule(get(state.schedules, 'subscription_schedule', m[1]));
  if (method === 'POST' && (m = path.match(/^\/v1\/subscription_schedules\/([^/]+)$/)))
    return updateSchedule(get(state.schedules, 'subscription_schedule', m[1]), params);
  if (method === 'GET' && path === '/v1/invoices') {
    const invoices = [...state.invoices.values()].filter((i) => !params.customer || i.customer === params.customer);
    return list(invoices, params, showInvoice, path);
  }
  if (method === 'GET' && path === '/v1/invoices/search') {
    // Only the query this site sends: number:"…".
    const number = /^number:"([^"]*)"$/.exec(String(params.query ?? '').trim())?.[1];
    if (number === undefined) throw invalid('Unsupported search query (this stand-in knows number:"…")');
    const found = [...state.invoices.values()].filter((i) => i.number === number);
    return { object: 'search_result', url: path, has_more: false, next_page: null, data: found.map(showInvoice) };
  }
  if (method === 'POST' && path === '/v1/credit_notes') return createCreditNote(params);
  if (method === 'GET' && path === '/v1/credit_notes') {
    let notes = [...state.creditNotes.values()];
    if (params.customer) notes = notes.filter((cn) => cn.customer === params.customer);
    if (params.invoice) notes = notes.filter((cn) => cn.invoice === params.invoice);
    return list(notes, params, (cn) => showCreditNote(cn, expandOf(params)), path);
  }
  if (method === 'GET' && (m = path.match(/^\/v1\/credit_notes\/([^/]+)$/)))
    return showCreditNote(get(state.creditNotes, 'credit_note', m[1]), expandOf(params));
  if (method === 'GET' && (m = path.match(/^\/v1\/invoices\/([^/]+)$/)))
    return showInvoice(get(state.invoices, 'invoice', m[1]));
  throw new ApiError(
    404,
    'invalid_request_error',
    `Unrecognized request URL (${method}: ${path}).`,
    'resource_missing',
  );
}

// ---------------------------------------------------------------------------- hosted pages

const escape = (s) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
const PAGE_TEXT = {
  en: {
    title: 'Pay (Stripe test stand-in)',
    email: 'Email',
    name: 'Name on card',
    company: 'Company',
    card: 'Card number',
    line1: 'Address line 1',
    line2: 'Address line 2',
    city: 'City',
    postal: 'Postal code',
    country: 'Country (ISO code)',
    businessName: 'Business name',
    taxIdType: 'Tax ID type',
    taxId: 'Tax ID',
    pay: 'Subscribe',
    back: 'Back',
  },
  ar: {
    title: 'الدفع (بديل اختبار Stripe)',
    email: 'البريد الإلكتروني',
    name: 'الاسم على البطاقة',
    company: 'الشركة',
    card: 'رقم البطاقة',
    line1: 'العنوان، السطر 1',
    line2: 'العنوان، السطر 2',
    city: 'المدينة',
    postal: 'الرمز البريدي',
    country: 'الدولة (رمز ISO)',
    businessName: 'اسم المنشأة',
    taxIdType: 'نوع الرقم الضريبي',
    taxId: 'الرقم الضريبي',
    pay: 'اشترك',
    back: 'رجوع',
  },
};

function payPage(session, error) {
  const lang = session.locale === 'ar' ? 'ar' : 'en';
  const t = PAGE_TEXT[lang];
  const price = state.prices.get(session._price);
  return `<!doctype html><html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${t.title}</title></head>
<body style="font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem">
<h1>${t.title}</h1><p data-testid="fake-stripe-amount">SGD ${(price.unit_amount / 100).toFixed(2)} / month</p>
${error ? `<p role="alert" data-testid="fake-stripe-error" style="color:#b00020">${escape(error)}</p>` : ''}
<form method="post" action="/pay/${escape(session.id)}">
<p><label>${t.email}<br><input name="email" type="email" required value="${escape(session.customer_email ?? '')}"></label></p>
<p><label>${t.name}<br><input name="name" required></label></p>
<p><label>${t.company}<br><input name="company"></label></p>
${
  session.billing_address_collection === 'required'
    ? `<fieldset><p><label>${t.line1}<br><input name="line1" required></label></p>
<p><label>${t.line2}<br><input name="line2"></label></p>
<p><label>${t.city}<br><input name="city"></label></p>
<p><label>${t.postal}<br><input name="postal_code"></label></p>
<p><label>${t.country}<br><input name="country" required maxlength="2"></label></p></fieldset>`
    : ''
}${
    session.tax_id_collection?.enabled
      ? `<fieldset><p><label>${t.businessName}<br><input name="business_name"></label></p>
<p><label>${t.taxIdType}<br><select name="tax_id_type"><option value="ae_trn">AE TRN</option><option value="sg_gst">SG GST</option></select></label></p>
<p><label>${t.taxId}<br><input name="tax_id_value"></label></p></fieldset>`
      : ''
  }
<p><label>${t.card}<br><input name="card" inputmode="numeric" required></label></p>
<p><button type="submit">${t.pay}</button> <a href="${escape(session.cancel_url)}">${t.back}</a></p>
</form></body></html>`;
}

// ---------------------------------------------------------------------------- server

function send(res, status, body, headers = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json',
    'Request-Id': newId('req'),
    ...headers,
  });
  res.end(text);
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, origin);
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = Buffer.concat(chunks).toString('utf8');
  try {
    if (url.pathname.startsWith('/_fake/')) {
      const json = body ? JSON.parse(body) : {};
      if (url.pathname === '/_fake/advance' && req.method === 'POST') {
        state.offset += Number(json.seconds ?? 0);
        runClock();
        await delivering;
        return send(res, 200, { now: now() });
      }
      if (url.pathname === '/_fake/events') {
        await delivering;
        return send(
          res,
          200,
          state.events.map((e) => ({ id: e.id, type: e.type, deliveries: e._deliveries, object: e.data.object.id })),
        );
      }
      if (url.pathname === '/_fake/redeliver' && req.method === 'POST') {
        const event = state.events.find((e) => e.id === json.id);
        if (!event) return send(res, 404, { error: 'no such event' });
        delivering = delivering.then(() => deliver(event, 1));
        await delivering;
        return send(res, 200, { deliveries: event._deliveries });
      }
      if (url.pathname === '/_fake/idle') {
        await delivering;
        return send(res, 200, { events: state.events.length });
      }
      return send(res, 404, { error: 'unknown' });
    }
    let m;
    if ((m = url.pathname.match(/^\/pay\/([^/]+)$/))) {
      const session = state.sessions.get(m[1]);
      if (!session) return send(res, 404, '<!doctype html><title>Not found</title><p>No such checkout.</p>');
      if (session.status !== 'open')
        return send(res, 303, '', { Location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) });
      if (req.method === 'GET') return send(res, 200, payPage(session));
      const outcome = completeCheckout(session, Object.fromEntries(new URLSearchParams(body)));
      if (outcome.declined) return send(res, 402, payPage(session, outcome.declined));
      return send(res, 303, '', { Location: outcome.redirect });
    }
    if ((m = url.pathname.match(/^\/credit_note\/([^/]+)\/pdf$/))) {
      const cn = state.creditNotes.get(m[1]);
      if (!cn) return send(res, 404, 'Not found');
      return send(
        res,
        200,
        `<!doctype html><title>${escape(cn.number)}</title><p>Credit note ${escape(cn.number)}</p>`,
      );
    }
    if ((m = url.pathname.match(/^\/invoice\/([^/]+)(\/pdf)?$/))) {
      const invoice = state.invoices.get(m[1]);
      if (!invoice) return send(res, 404, 'Not found');
      // Stripe's hosted invoice, reduced to what a test reads: the parties, tax IDs and tax amounts.
      const rateOf = (t) => state.taxRates.get(t.tax_rate_details?.tax_rate);
      return send(
        res,
        200,
        `<!doctype html><title>${escape(invoice.number)}</title><p>Invoice ${escape(invoice.number)}: ${escape(invoice.status)}</p>` +
          `<p data-testid="customer">${escape(invoice.customer_name)}, ${escape(
            Object.values(invoice.customer_address ?? {})
              .filter(Boolean)
              .join(', '),
          )}</p>` +
          invoice.customer_tax_ids
            .map((t) => `<p data-testid="customer-tax-id">${escape(t.type)} ${escape(t.value)}</p>`)
            .join('') +
          invoice.account_tax_ids
            .map((id) => `<p data-testid="account-tax-id">${escape(state.taxIds.get(id)?.value)}</p>`)
            .join('') +
          invoice.total_taxes
            .map(
              (t) =>
                `<p data-testid="tax">${escape(rateOf(t)?.display_name)} ${rateOf(t)?.percentage}%: ${(t.amount / 100).toFixed(2)}</p>`,
            )
            .join('') +
          `<p data-testid="total">${(invoice.total / 100).toFixed(2)}</p>`,
      );
    }
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    const params = req.method === 'GET' || req.method === 'DELETE' ? parseForm(url.search.slice(1)) : parseForm(body);
    const key = req.method === 'POST' ? req.headers['idempotency-key'] : undefined;
    if (key) {
      const seen = state.idempotency.get(key);
      if (seen) {
        if (seen.method !== req.method || seen.path !== url.pathname || seen.body !== body) {
          return send(res, 400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          });
        }
        return send(res, seen.status, seen.response, { 'Idempotent-Replayed': 'true', 'Idempotency-Key': key });
      }
    }
    let status = 200;
    let response;
    try {
      response = route(req.method, url.pathname, params);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status = error.status;
      response = { error: { type: error.type, message: error.message, ...(error.code ? { code: error.code } : {}) } };
    }
    // Stripe keeps the answer to a key, errors included (except for errors of its own).
    if (key) state.idempotency.set(key, { method: req.method, path: url.pathname, body, status, response });
    return send(res, status, response, key ? { 'Idempotency-Key': key } : {});
  } catch (error) {
    console.error('[fake-stripe]', error);
    return send(res, 500, { error: { type: 'api_error', message: String(error) } });
  }
});

server.listen(port, '127.0.0.1', () =>
  console.log(`[fake-stripe] on ${origin}${webhookUrl ? `, events to ${webhookUrl}` : ''}`),
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
