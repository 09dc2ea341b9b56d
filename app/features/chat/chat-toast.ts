import type { AttemptResult, CheckResult } from './chat-limit';

/** i18next keys (namespace `chat`, file public/locales/{lng}/chat.json). */
export const CHAT_TOAST_KEYS = {
  rateLimitTitle: 'chat:rateLimitTitle',
  dailyLimit: 'chat:dailyLimit',
  /** Plural key: pass `count` (the lng files hold wait_one, wait_few, …). */
  wait: 'chat:wait',
  attemptsUsed: 'chat:attemptsUsed',
  openingTitle: 'chat:openingTitle',
  remaining: 'chat:remaining',
} as const;

export type ToastVariant = 'default' | 'destructive';

export interface ToastMessage {
  titleKey: string;
  descriptionKey: string;
  /** Interpolation values for both the description and the appended text. */
  values: Record<string, number>;
  /** A key whose text is appended to the description (no separator added). */
  appendKey?: string;
  variant: ToastVariant;
}

/** The toast for a limiter result, or null when none is shown ('verify': the dialog opens). */
export function toastFor(result: CheckResult | AttemptResult): ToastMessage | null {
  switch (result.status) {
    case 'blocked':
      return result.reason === 'daily'
        ? {
            titleKey: CHAT_TOAST_KEYS.rateLimitTitle,
            descriptionKey: CHAT_TOAST_KEYS.dailyLimit,
            values: { max: result.max },
            variant: 'destructive',
          }
        : {
            titleKey: CHAT_TOAST_KEYS.rateLimitTitle,
            descriptionKey: CHAT_TOAST_KEYS.wait,
            values: { count: result.waitMinutes, used: result.used, max: result.max },
            appendKey: CHAT_TOAST_KEYS.attemptsUsed,
            variant: 'destructive',
          };
    case 'allowed':
    case 'opened':
      return {
        titleKey: CHAT_TOAST_KEYS.openingTitle,
        descriptionKey: CHAT_TOAST_KEYS.remaining,
        values: { remaining: result.remaining, max: result.max },
        variant: 'default',
      };
    case 'verify':
      return null;
  }
}

/** Renders a ToastMessage with an i18next-style `t` (e.g. from useTranslation). */
export function renderToast(
  message: ToastMessage,
  t: (key: string, values?: Record<string, unknown>) => string,
): { title: string; description: string; variant: ToastVariant } {
  const description =
    t(message.descriptionKey, message.values) + (message.appendKey ? t(message.appendKey, message.values) : '');
  return { title: t(message.titleKey), description, variant: message.variant };
}
