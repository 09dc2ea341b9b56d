import { useState } from 'react';
import { useShell, type ShellData } from '~/lib/shell';

/**
 * The form's token for the spam checks (spam-check.ts, ADR 0021): the page token the server
 * rendered into the page (its render time, shared by every visitor of the cached page), so the
 * first post is accepted with or without JavaScript. A token the server handed back with a
 * refusal (`fromServer`: the same page token, or a new visitor token when it had expired) wins.
 */
export function useFormToken(fromServer: string | null | undefined): string {
  // Outside the locale layout (a form rendered alone in a test) there is no page token.
  const current = (useShell() as ShellData | undefined)?.formToken ?? '';
  // The token the form was shown with is kept: after another form's post the shell's data is
  // loaded again with a token dated that instant, and a post right after would be 'too fast'.
  const [shown] = useState(current);
  return fromServer || shown || current;
}
