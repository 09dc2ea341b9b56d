import {
  assertSafePost,
  data,
  englishFallbacks,
  env,
  formText,
  loadQuery,
  portalT,
  readPostedForm,
  redirect,
  startCheckout,
  TooManyCheckouts,
} from '~/server-api';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { isPlanKey } from '~/billing/types';
import {
  CalendarIcon,
  CmsText,
  HydrateLater,
  landingMeta,
  requestLocale,
  RouteErrorBoundary,
  useFallbackLang,
  useT,
} from '~/kit';
import { Bidi, BookConsultationButton, button, CheckList, container, CtaBand, PageHeading } from '~/content-kit';
import { formatSgd } from '~/lib/price';
import { PRICING_QUERY } from '~/sanity/queries/marketing';
import { RATE_LIMITED_MESSAGE } from '~/features/forms/rate-limit';

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = requestLocale(request);
  const data = await loadQuery(request, PRICING_QUERY, { lang: locale });
  // Formatted once, on the server, for the page's locale: the browser shows exactly this text.
  return {
    ...data,
    plans: data.plans.map((plan) => ({ ...plan, price: formatSgd(plan.priceSgd, locale) })),
    englishFallbacks: englishFallbacks(request),
    // No billing on this site (public, no Stripe keys, no BILLING=demo): packages by consultation.
    subscribe: env().billing.kind !== 'none',
  };
}

export const meta: MetaFunction<typeof loader> = (args) => landingMeta(args, args.data?.page);

export const ErrorBoundary = RouteErrorBoundary;

export type PricingActionData = { error: string };

/**
 * Subscribe: a plain form post (works without JavaScript) that starts a checkout for the chosen
 * package and sends the visitor there (the local checkout page, or Stripe Checkout).
 */
export async function action({ request }: ActionFunctionArgs) {
  const locale = requestLocale(request);
  const form = await readPostedForm(request, locale);
  await assertSafePost(request, form, null);
  const t = await portalT(locale);
  // A site without billing starts no checkout: its packages are arranged by consultation.
  if (env().billing.kind === 'none')
    return data<PricingActionData>({ error: t('pricing.byConsultation') }, { status: 403 });
  const plan = form.get('plan');
  if (form.get('intent') !== 'subscribe' || !isPlanKey(plan)) {
    return data<PricingActionData>({ error: t('pricing.badPlan') }, { status: 400 });
  }
  try {
    const { url } = await startCheckout(request, plan, locale);
    return redirect(url, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    // Too many checkouts from this IP: the forms' own "too many submissions" answer; nothing was started.
    if (error instanceof TooManyCheckouts)
      return data<PricingActionData>({ error: formText(locale, RATE_LIMITED_MESSAGE.messageKey) }, { status: 429 });
    console.error(`[pricing] could not start checkout: ${String(error)}`);
    return data<PricingActionData>({ error: t('pricing.unavailable') }, { status: 503 });
  }
}

type Plan = ReturnType<typeof useLoaderData<typeof loader>>['plans'][number];

export default function Pricing() {
  const { page, plans, subscribe } = useLoaderData<typeof loader>();
  const { t } = useT('marketing');
  return (
    <div data-testid="pricing-page">
      <header className="bg-gradient-to-b from-sand-50 to-white pt-12 pb-10 md:pt-20 md:pb-14">
        <div className={`${container} max-w-4xl text-center`}>
          <PageHeading title={page.title} intro={page.intro} variant="marketing" introClassName="mx-auto max-w-3xl" />
        </div>
      </header>

      <section aria-label={t('pricing.plansLabel')} className="pb-16 md:pb-20">
        <SubscribeError />
        {/* The plans' cards hydrate apart from the page (HydrateLater). */}
        <HydrateLater>
          <ul className={`${container} grid gap-6 lg:grid-cols-3 lg:items-stretch`}>
            {plans.map((plan) => (
              <PlanCard key={plan._id} plan={plan} subscribe={subscribe} />
            ))}
          </ul>
        </HydrateLater>
        <p className={`${container} mt-8 text-center text-sm text-navy-700`}>
          {t(subscribe ? 'pricing.paymentNote' : 'pricing.consultationNote')}
        </p>
      </section>

      <HydrateLater>
        <CtaBand page="pricing" className="bg-sand-50" />
      </HydrateLater>
    </div>
  );
}

function PlanCard({ plan, subscribe }: { plan: Plan; subscribe: boolean }) {
  const { t } = useT('marketing');
  const popular = Boolean(plan.popularLabel);
  const titleId = `plan-${plan.key}-title`;
  const subheading = `text-sm font-semibold uppercase tracking-wider ${popular ? 'text-gold-300' : 'text-gold-700'}`;
  const body = popular ? 'text-navy-100' : 'text-navy-700';
  return (
    <li
      aria-labelledby={titleId}
      data-testid={`plan-${plan.key}`}
      className={`relative flex flex-col rounded-3xl p-7 md:p-8 ${
        popular
          ? 'bg-navy-900 text-white shadow-xl ring-2 ring-gold-500 lg:-my-4 lg:py-12'
          : 'border border-navy-100 bg-white text-navy-900 shadow-sm'
      }`}
    >
      <CmsText
        text={plan.popularLabel}
        className="absolute -top-3.5 start-7 rounded-full bg-gold-500 px-3.5 py-1 text-sm font-bold text-navy-950 shadow"
        data-testid="popular-label"
      />
      <CmsText as="h2" text={plan.name} id={titleId} className="text-2xl font-bold" />
      <CmsText text={plan.description} className={`mt-3 leading-7 ${body}`} />

      <p className="mt-6 flex flex-wrap items-baseline gap-x-2">
        <span className="text-4xl font-bold tracking-tight tabular-nums" data-testid="plan-price">
          <bdi>{plan.price}</bdi>
        </span>
        <span className={`font-medium ${body}`}>{t('pricing.perMonth')}</span>
      </p>

      <dl className={`mt-6 space-y-4 border-t pt-6 ${popular ? 'border-white/15' : 'border-navy-100'}`}>
        {plan.timeCommitment && (
          <div>
            <dt className="sr-only">{t('pricing.timeCommitment')}</dt>
            <dd className="flex items-center gap-2 font-semibold">
              <CalendarIcon className={`size-5 shrink-0 ${popular ? 'text-gold-300' : 'text-gold-700'}`} />
              <CmsText as="span" text={plan.timeCommitment} />
            </dd>
          </div>
        )}
        {plan.businessReports != null && (
          <div>
            <dt className={subheading}>{t('pricing.reportsLabel')}</dt>
            <dd className={`mt-1 ${body}`} data-testid="plan-reports">
              {t('pricing.businessReports', { count: plan.businessReports })}
            </dd>
          </div>
        )}
        {plan.keyAreas.length > 0 && (
          <div>
            <dt className={subheading}>{t('pricing.keyAreas')}</dt>
            <dd className="mt-2">
              <ul className="flex flex-wrap gap-2">
                {plan.keyAreas.map((area) => (
                  <li
                    key={area._key}
                    className={`rounded-lg px-3 py-1 text-sm ${popular ? 'bg-white/10 text-white' : 'bg-sand-100 text-navy-900'}`}
                  >
                    <CmsText as="span" text={area.text} />
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
        {plan.bestFor && (
          <div>
            <dt className={subheading}>{t('pricing.bestFor')}</dt>
            <CmsText as="dd" text={plan.bestFor} className={`mt-1 leading-7 ${body}`} />
          </div>
        )}
      </dl>

      {plan.features.length > 0 && (
        <div className="mt-6 flex-1">
          <h3 className={subheading}>{t('pricing.features')}</h3>
          <CheckList
            items={plan.features}
            className="mt-3 space-y-2.5"
            itemClassName={`flex gap-2.5 leading-6 ${popular ? 'text-white' : 'text-navy-800'}`}
            iconClassName={`mt-0.5 size-5 shrink-0 ${popular ? 'text-gold-300' : 'text-gold-700'}`}
          />
        </div>
      )}

      {subscribe ? (
        <SubscribeButton plan={plan} className={`mt-8 w-full ${popular ? button.gold : button.primary}`} />
      ) : (
        <BookPlanButton plan={plan} className={`mt-8 w-full ${popular ? button.gold : button.primary}`} />
      )}
    </li>
  );
}

/** The Subscribe button: posts the package's key to this page's action, which starts the checkout. */
function SubscribeButton({ plan, className }: { plan: Plan; className: string }) {
  const { t } = useT('marketing');
  const inEnglish = useFallbackLang();
  const navigation = useNavigation();
  const busy =
    navigation.state !== 'idle' && navigation.formMethod === 'POST' && navigation.formData?.get('plan') === plan.key;
  return (
    <Form method="post" className="mt-auto">
      <input type="hidden" name="intent" value="subscribe" />
      <input type="hidden" name="plan" value={plan.key} />
      <button
        type="submit"
        data-testid="plan-subscribe"
        aria-busy={busy || undefined}
        className={`${className} aria-busy:cursor-wait aria-busy:opacity-80`}
      >
        {t('pricing.subscribe')}
        <span className="sr-only">
          {' '}
          <Bidi {...inEnglish(plan.name)}>{plan.name}</Bidi>
        </span>
      </button>
    </Form>
  );
}

/** Where the site takes no payment: the package is arranged in a consultation (the booking dialog). */
function BookPlanButton({ plan, className }: { plan: Plan; className: string }) {
  const { t } = useT('marketing');
  const inEnglish = useFallbackLang();
  return (
    <div className="mt-auto" data-testid="plan-book">
      <BookConsultationButton source="cta" className={className}>
        {t('bookConsultation')}
        <span className="sr-only">
          {' '}
          <Bidi {...inEnglish(plan.name)}>{plan.name}</Bidi>
        </span>
      </BookConsultationButton>
    </div>
  );
}

/** Why Subscribe did not go through (an unknown package, or checkout unavailable), in an alert that takes focus. */
function SubscribeError() {
  const result = useActionData<typeof action>();
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (result) ref.current?.focus();
  }, [result]);
  if (!result) return null;
  return (
    <div className={`${container} mb-8`}>
      <p
        ref={ref}
        tabIndex={-1}
        role="alert"
        data-testid="subscribe-error"
        className="rounded-xl border border-red-300 bg-red-50 p-4 font-medium text-red-800 outline-none"
      >
        {result.error}
      </p>
    </div>
  );
}
