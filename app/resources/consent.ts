import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { db } from '~/db/client.server';
import { choiceOfForm, CONSENT_JS_FIELD, CONSENT_RETURN_FIELD, CONSENT_SAVED_ANCHOR } from '~/features/consent/consent';
import { privacySignalOf, recordConsent } from '~/features/consent/consent.server';
import { formText, readFormBody } from '~/features/forms/request.server';
import { localeFromPath } from '~/i18n';
import { env } from '~/lib/env.server';
import { safeReturnPath } from '~/lib/return-path';

/**
 * POST /api/consent: the cookie banner's choice (issue 42). server.mjs has already refused a post
 * from another origin, as for every form. The choice is recorded (consent_records) and kept in
 * the consent cookie. From the banner's script (`_js=1`): JSON `{ analytics, marketing }`, what
 * the page applies. A plain form post (no JavaScript): 303 back to the page the form was on, at
 * the anchor that hides the banner. A post that is not one of the banner's choices: a short
 * localized refusal (400/415), nothing recorded and no cookie.
 */
export const loader = () => redirect('/', 303);

function refusal(status: number, locale: 'en' | 'ar') {
  return new Response(`${formText(locale, 'consent.invalid')}\n`, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale, 'Cache-Control': 'no-store' },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const origins = [new URL(request.url).origin, new URL(env().siteUrl).origin];
  const returnOf = (raw: string | null) =>
    safeReturnPath(raw, origins) ?? safeReturnPath(request.headers.get('Referer'), origins) ?? '/';
  const body = await readFormBody(request, CONSENT_RETURN_FIELD);
  if (!body.ok) return refusal(body.status, localeFromPath(new URL(returnOf(body.returnTo), 'http://x').pathname));
  const field = body.form.get(CONSENT_RETURN_FIELD);
  const back = new URL(returnOf(typeof field === 'string' ? field : null), 'http://x');
  const locale = localeFromPath(back.pathname);
  const asked = choiceOfForm(body.form);
  if (!asked) return refusal(400, locale);
  const script = body.form.get(CONSENT_JS_FIELD) === '1';
  const { stored, setCookie } = await recordConsent(await db(), {
    cookies: request.headers.get('Cookie'),
    action: asked.action,
    choice: asked.choice,
    gpc: privacySignalOf(request),
    via: script ? 'script' : 'form',
    locale,
  });
  const headers = { 'Set-Cookie': setCookie, 'Cache-Control': 'no-store' };
  if (script) return Response.json({ analytics: stored.analytics, marketing: stored.marketing }, { headers });
  return redirect(`${back.pathname}${back.search}#${CONSENT_SAVED_ANCHOR}`, { status: 303, headers });
}
