import * as Dialog from '@radix-ui/react-dialog';
import { CloseIcon } from './icons';

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
