import * as ToastPrimitive from '@radix-ui/react-toast';
import { CloseIcon, useDir, useT } from '~/kit';
import { TOAST_DURATION, TOAST_HOTKEY, TOAST_SWIPE_THRESHOLD, dismissToast, useToast } from './toast-store';

/**
 * Radix Toast provider and viewport, mounted once in the page shell. Radix announces each
 * toast to screen readers (a live region) and moves focus to the viewport on F8.
 */
export function Toaster() {
  const { t } = useT('chat');
  const direction = useDir();
  const { toasts } = useToast();
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION}
      swipeThreshold={TOAST_SWIPE_THRESHOLD}
      swipeDirection={direction === 'rtl' ? 'left' : 'right'}
      label={t('toast.label')}
    >
      {toasts.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          open={item.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
          duration={item.duration}
          type={item.variant === 'destructive' ? 'foreground' : 'background'}
          data-testid="toast"
          data-variant={item.variant}
          className={`group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-2xl border p-4 pe-10 shadow-lg transition-all data-[state=closed]:opacity-0 data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=end]:opacity-0 ${
            item.variant === 'destructive'
              ? 'border-red-800 bg-red-700 text-white'
              : 'border-navy-100 bg-white text-navy-900'
          }`}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="font-semibold">{item.title}</ToastPrimitive.Title>
            {item.description && (
              <ToastPrimitive.Description
                className={item.variant === 'destructive' ? 'text-sm text-white' : 'text-sm text-navy-700'}
              >
                {item.description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label={t('toast.close')}
            className={`absolute end-2 top-2 inline-flex size-8 items-center justify-center rounded-full ${
              item.variant === 'destructive' ? 'text-white hover:bg-red-800' : 'text-navy-700 hover:bg-navy-50'
            }`}
          >
            <CloseIcon className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        hotkey={TOAST_HOTKEY}
        label={t('toast.viewport')}
        className="fixed end-0 top-24 z-[100] m-0 flex w-full max-w-[420px] list-none flex-col gap-2 p-4 outline-none md:top-40"
      />
    </ToastPrimitive.Provider>
  );
}
