import type { Locale } from '~/i18n';
import { renderClientEmail, type ClientEmail, type RenderedEmail } from '~/portal/emails.server';
import { CONFIRM_LINK_DAYS } from './wording';
import { confirmUrl, unsubscribeUrl } from './links.server';

/**
 * What the mail queue keeps for a newsletter email (app/portal/mail-queue.server.ts): the sign-up's
 * id and, for a confirmation, when its link was issued. The links are derived when it is sent.
 */
export type NewsletterMail =
  | { kind: 'newsletter-confirm'; locale: Locale; siteUrl: string; signupId: string; issuedAt: number }
  | { kind: 'newsletter-welcome'; locale: Locale; siteUrl: string; signupId: string };

export const NEWSLETTER_MAIL_KINDS: readonly string[] = [
  'newsletter-confirm',
  'newsletter-welcome',
] satisfies NewsletterMail['kind'][];

export type ListEmail = RenderedEmail & { headers: Record<string, string> };

/**
 * THE way a newsletter email is made (the confirmation, the welcome, and anything later sent to
 * the list): the body in the reader's language with an unsubscribe link in its footer, and the
 * headers of RFC 2369 and RFC 8058, so a mail program offers its own "Unsubscribe" and does it
 * with one POST (`List-Unsubscribe=One-Click`) to the same link, without a sign-in.
 * `content` is the email's own part (for a list send: another kind added to ClientEmail).
 */
export function listEmail(
  signup: { id: string; locale: Locale; siteUrl: string },
  content: (links: { unsubscribeUrl: string }) => ClientEmail,
): ListEmail {
  const unsubscribe = unsubscribeUrl(signup.siteUrl, signup.locale, signup.id);
  const rendered = renderClientEmail(content({ unsubscribeUrl: unsubscribe }));
  const host = new URL(signup.siteUrl).hostname;
  return {
    ...rendered,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'List-Id': `Newsletter <newsletter.${host}>`,
    },
  };
}

/** A queued newsletter email, rendered. */
export function renderNewsletterMail(message: NewsletterMail): ListEmail {
  const { locale, siteUrl, signupId } = message;
  return listEmail({ id: signupId, locale, siteUrl }, ({ unsubscribeUrl }) =>
    message.kind === 'newsletter-confirm'
      ? {
          kind: 'newsletter-confirm',
          locale,
          siteUrl,
          name: '',
          confirmUrl: confirmUrl(siteUrl, locale, signupId, message.issuedAt),
          days: CONFIRM_LINK_DAYS,
          unsubscribeUrl,
        }
      : { kind: 'newsletter-welcome', locale, siteUrl, name: '', unsubscribeUrl },
  );
}
