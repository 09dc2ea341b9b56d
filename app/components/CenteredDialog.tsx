import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode, RefObject } from 'react';
import { CloseIcon } from './icons';

type Props = Omit<Dialog.DialogContentProps, 'className'> & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The box's width and padding, or its column layout. */
  className: string;
  /** Where focus goes when the dialog closes, if that element is still on the page (instead of Radix's choice). */
  returnFocusRef?: RefObject<HTMLElement | null>;
  /** Blur the page behind the dim overlay (all but the chat's verification). */
  blur?: boolean;
  children: ReactNode;
};

/**
 * A modal dialog centred over the dimmed page, in both writing directions. Radix keeps focus inside,
 * and Escape or a click on the overlay closes it. The Content's own props (data-testid, onOpenAutoFocus,
 * onCloseAutoFocus, aria-describedby) are passed through.
 */
export function CenteredDialog({
  open,
  onOpenChange,
  className,
  returnFocusRef,
  blur = true,
  children,
  ...content
}: Props) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={`fixed inset-0 z-[70] bg-navy-950/60${blur ? ' backdrop-blur-[2px]' : ''}`} />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            const target = returnFocusRef?.current;
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
          {...content}
          className={`fixed start-1/2 top-1/2 z-[80] -translate-y-1/2 rounded-2xl bg-white shadow-2xl ltr:-translate-x-1/2 rtl:translate-x-1/2 ${className}`}
        >
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The round × in a dialog's corner (44 px target); `label` is its accessible name. */
export function DialogCloseButton({ label }: { label: string }) {
  return (
    <Dialog.Close
      aria-label={label}
      className="inline-flex size-11 shrink-0 items-center justify-center rounded-full text-navy-700 hover:bg-navy-50"
    >
      <CloseIcon className="size-5" />
    </Dialog.Close>
  );
}
