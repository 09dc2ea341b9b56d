import { data, fixedT, linkFields, unsubscribePagePost, unsubscribePageState } from '~/server-api';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { NewsletterLinkPage } from '~/features/newsletter/NewsletterLinkPage';
import { portalMeta } from '~/features/portal/kit';
import { requestLocale, RouteErrorBoundary } from '~/kit';

/**
 * /newsletter/unsubscribe?s=…&t=… (and /ar/…): the link in every newsletter email and its
 * List-Unsubscribe header. A GET shows one button and changes nothing (mail scanners open links);
 * a POST unsubscribes: the button's (works without JavaScript), or a mail program's RFC 8058
 * one-click POST (`List-Unsubscribe=One-Click`) to this same URL. No sign-in.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const t = fixedT(requestLocale(request), 'forms');
  return {
    state: unsubscribePageState(request),
    fields: linkFields(request),
    title: t('newsletter.unsubscribePage.title'),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const result = await unsubscribePagePost(request);
  return data({ result }, { status: result === 'invalid' ? 400 : 200 });
}

export const meta: MetaFunction<typeof loader> = (args) => portalMeta(args, args.data?.title);

export const ErrorBoundary = RouteErrorBoundary;

export default function NewsletterUnsubscribe() {
  return <NewsletterLinkPage kind="unsubscribe" />;
}
