import { confirmPagePost, confirmPageState, data, fixedT, linkFields } from '~/server-api';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { NewsletterLinkPage } from '~/features/newsletter/NewsletterLinkPage';
import { portalMeta } from '~/features/portal/kit';
import { requestLocale, RouteErrorBoundary } from '~/kit';

/**
 * /newsletter/confirm?s=…&at=…&t=… (and /ar/…): the newsletter's confirmation link. A GET shows a
 * button and changes nothing (mail scanners open links); the button posts, which confirms once;
 * the same link again says it is confirmed already; an expired or altered link says so. Works
 * without JavaScript (a plain form post answered with this page).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const t = fixedT(requestLocale(request), 'forms');
  return {
    state: await confirmPageState(request),
    fields: linkFields(request),
    title: t('newsletter.confirmPage.title'),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const result = await confirmPagePost(request);
  return data({ result }, { status: result === 'invalid' || result === 'expired' ? 400 : 200 });
}

export const meta: MetaFunction<typeof loader> = (args) => portalMeta(args, args.data?.title);

export const ErrorBoundary = RouteErrorBoundary;

export default function NewsletterConfirm() {
  return <NewsletterLinkPage kind="confirm" />;
}
