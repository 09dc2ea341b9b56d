import { db as processDb } from '~/db/client.server';
import { readFormBody } from '~/features/forms/request.server';
import { env } from '~/lib/env.server';
import { log } from '~/lib/log.server';
import { mailer } from '~/lib/mailer.server';
import {
  checkConfirmLink,
  checkUnsubscribeLink,
  confirmSignup,
  unsubscribe,
  type ConfirmResult,
  type NewsletterMailDeps,
  type UnsubscribeResult,
} from './newsletter.server';

/**
 * What the pages /newsletter/confirm and /newsletter/unsubscribe (and /ar/…) ask of the server.
 * A GET only reads (mail scanners open links): the page shows a button that posts. A POST acts:
 * the link's parameters come from the posted form (the page's own button) or, for a mail
 * program's one-click unsubscribe (RFC 8058: `List-Unsubscribe=One-Click` posted to the URL of
 * the List-Unsubscribe header), from the URL. No sign-in and no same-origin check: the signed
 * link is the authority, and a mail program's POST comes from no page of ours.
 */
export async function newsletterMailDeps(): Promise<NewsletterMailDeps> {
  const e = env();
  return {
    db: await processDb(),
    mailer: mailer(),
    from: e.mail.from ?? `Bawaba Advisory <no-reply@${new URL(e.siteUrl).hostname}>`,
    now: Date.now,
    siteUrl: e.siteUrl,
    log: (m) => log.error({ event: 'newsletter.mail' }, m),
  };
}

const LINK_FIELDS = ['s', 'at', 't'] as const;

/** The link's parameters: the posted form's when it carries them, else the URL's. */
async function postedLink(request: Request): Promise<URLSearchParams> {
  const fromUrl = new URL(request.url).searchParams;
  const body = await readFormBody(request);
  if (!body.ok || typeof body.form.get('s') !== 'string') return fromUrl;
  const params = new URLSearchParams();
  for (const name of LINK_FIELDS) {
    const value = body.form.get(name);
    if (typeof value === 'string') params.set(name, value.slice(0, 200));
  }
  return params;
}

/** A link's parameters to carry in the page's form (only ours, bounded). */
export function linkFields(request: Request): Record<string, string> {
  const params = new URL(request.url).searchParams;
  return Object.fromEntries(
    LINK_FIELDS.filter((name) => params.has(name)).map((name) => [name, params.get(name)!.slice(0, 200)]),
  );
}

export async function confirmPageState(request: Request): Promise<ConfirmResult | 'ready'> {
  return checkConfirmLink(await processDb(), new URL(request.url).searchParams, Date.now());
}

export async function confirmPagePost(request: Request): Promise<ConfirmResult> {
  return confirmSignup(await postedLink(request), await newsletterMailDeps());
}

export function unsubscribePageState(request: Request): 'ready' | 'invalid' {
  return checkUnsubscribeLink(new URL(request.url).searchParams);
}

export async function unsubscribePagePost(request: Request): Promise<UnsubscribeResult> {
  return unsubscribe(await processDb(), await postedLink(request), Date.now());
}
