import * as Tooltip from '@radix-ui/react-tooltip';
import { useLocation } from '@remix-run/react';
import { useCallback, useRef, useState } from 'react';
import {
  BOOKING_PATH,
  CalendarIcon,
  ChatIcon,
  deferred,
  isPlainClick,
  localizePath,
  stripLocale,
  useBooking,
  useDir,
  useLocale,
  useMountedOnDemand,
  useT,
  whatsappUrl,
} from '~/kit';
import { toast } from '~/features/toast/toast-store';
import { useHiddenWhileScrollingDown } from '~/lib/hide-on-scroll';
import { toastForVerification, type VerificationEffect } from './puzzle';
import { createChatLimiter, type ChatLimiter } from './chat-limit';
import { renderToast, toastFor, type ToastMessage } from './chat-toast';

// The human check (a dialog) is fetched when the browser is idle, or when it is first needed.
const VerificationDialog = deferred('verification', () =>
  import('./VerificationDialog').then((m) => m.VerificationDialog),
);

export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

/**
 * The floating calendar and chat buttons (docs/requirements.md#chat-and-booking), fixed at the end side
 * (they mirror in Arabic) above the safe area. On phones they slide away while the reader scrolls
 * down (they would sit on the text being read) and return on any scroll up, at the page's top and
 * end, and whenever one of them has keyboard focus.
 *
 * Both are links, so that they work before the page's scripts run and without them:
 * - the calendar leads to the booking view; once scripts run, a plain click opens the booking
 *   dialog instead (on the booking view itself it is left out: it would lead where the visitor is);
 * - the chat is the WhatsApp deep link in a new tab. Once scripts run, every click (and a middle
 *   click) goes through the limiter instead, in the click handler, so that the tab the limiter
 *   allows opens inside the user gesture. Without scripts the limit, kept in the browser, cannot
 *   apply (docs/requirements.md#chat-and-booking).
 */
export function FloatingButtons({
  whatsappNumber,
  whatsappMessage,
}: {
  whatsappNumber: string | null;
  whatsappMessage: string | null;
}) {
  const { t } = useT('chat');
  const { openBooking } = useBooking();
  const direction = useDir();
  const locale = useLocale();
  const onBookingView = stripLocale(useLocation().pathname).replace(/\/$/, '') === BOOKING_PATH;
  const limiterRef = useRef<ChatLimiter | null>(null);
  const [verifying, setVerifying] = useState(false);
  const chatRef = useRef<HTMLAnchorElement>(null);
  const tucked = useHiddenWhileScrollingDown();
  const checkMounted = useMountedOnDemand(verifying, VerificationDialog);

  const limiter = () => (limiterRef.current ??= createChatLimiter());
  const show = useCallback(
    (message: ToastMessage | null) => {
      if (message) toast(renderToast(message, (key, values) => t(key, values)));
    },
    [t],
  );
  const openChat = () => {
    if (whatsappNumber) window.open(whatsappUrl(whatsappNumber, whatsappMessage ?? ''), '_blank', 'noopener');
  };

  const onChatClick = (event: React.MouseEvent) => {
    // The link's own new tab would skip the limiter: the limiter decides, and opens the tab itself.
    event.preventDefault();
    const result = limiter().attempt();
    if (result.status === 'verify') {
      setVerifying(true);
      return;
    }
    if (result.status === 'opened') openChat();
    show(toastFor(result));
  };

  const onVerification = (effect: Exclude<VerificationEffect, null>) => {
    if (effect === 'failed') {
      show(toastForVerification('failed'));
      return;
    }
    setVerifying(false);
    const result = limiter().markVerified();
    if (result.status === 'opened') {
      openChat();
      show(toastForVerification('verified'));
    } else {
      show(toastFor(result));
    }
  };

  const button =
    'inline-flex size-12 items-center justify-center rounded-full shadow-lg ring-1 ring-black/5 transition-transform hover:scale-105 focus-visible:scale-105 md:size-14';
  return (
    <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      {/* A landmark of its own (named "Quick contact"), so that screen reader users find the buttons
          among the page's regions rather than as stray content after the footer. */}
      <aside
        aria-label={t('floating.regionLabel')}
        data-testid="floating-buttons"
        data-tucked={tucked || undefined}
        className="pointer-events-none fixed end-[max(1rem,env(safe-area-inset-right))] bottom-[max(1rem,env(safe-area-inset-bottom))] z-50 flex flex-col items-center gap-3 motion-safe:transition-[translate,opacity] motion-safe:duration-200 rtl:end-[max(1rem,env(safe-area-inset-left))] data-[tucked]:translate-y-[calc(100%+2rem)] data-[tucked]:opacity-0 data-[tucked]:focus-within:translate-y-0 data-[tucked]:focus-within:opacity-100"
      >
        {!onBookingView && (
          <a
            href={localizePath(BOOKING_PATH, locale)}
            data-testid="floating-booking"
            aria-label={t('floating.bookLabel')}
            onClick={(event) => {
              if (!isPlainClick(event)) return;
              event.preventDefault();
              openBooking('floating');
            }}
            className={`${button} pointer-events-auto bg-gold-500 text-navy-950 hover:bg-gold-400`}
          >
            <CalendarIcon className="size-6" />
          </a>
        )}
        {whatsappNumber && (
          <Tooltip.Root>
            <Tooltip.Trigger asChild>
              <a
                href={whatsappUrl(whatsappNumber, whatsappMessage ?? '')}
                target="_blank"
                rel="noopener noreferrer"
                ref={chatRef}
                data-testid="floating-chat"
                aria-label={t('floating.chatLabel')}
                onClick={onChatClick}
                onAuxClick={(event) => {
                  if (event.button === 1) onChatClick(event);
                }}
                className={`${button} pointer-events-auto bg-emerald-700 text-white hover:bg-emerald-800`}
              >
                <ChatIcon className="size-6" />
              </a>
            </Tooltip.Trigger>
            <Tooltip.Portal>
              <Tooltip.Content
                side={direction === 'rtl' ? 'right' : 'left'}
                sideOffset={8}
                className="z-50 rounded-lg bg-navy-900 px-3 py-2 text-sm font-medium text-white shadow-lg"
                data-testid="chat-tooltip"
              >
                {t('tooltip')}
                <Tooltip.Arrow className="fill-navy-900" />
              </Tooltip.Content>
            </Tooltip.Portal>
          </Tooltip.Root>
        )}
      </aside>
      {checkMounted && (
        <VerificationDialog
          open={verifying}
          onOpenChange={setVerifying}
          onEffect={onVerification}
          returnFocusRef={chatRef}
        />
      )}
    </Tooltip.Provider>
  );
}
