// The close button lives with the dialog shell in CenteredDialog.tsx: one module, so the browser gets the two in one
// chunk. This path stays only for the booking dialog's import (until it uses CenteredDialog too).
export { DialogCloseButton } from './CenteredDialog';
