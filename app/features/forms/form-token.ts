import { useCallback, useRef, useState } from 'react';
import { useShell, type ShellData } from '~/lib/shell';
import { FORM_TOKEN_ACTION } from './fields';

/**
 * The form's signed start time for the spam timer (spam-check.ts, ADR 0021). The page carries a
 * page token (its render time, shared by every visitor of the cached page), so a post without
 * JavaScript, or one sent before the scripts arrive, is accepted the first time. With JavaScript,
 * `onFirstUse` (a field focused or pressed) asks GET /api/form-token once for the visitor's own
 * token, which replaces it: its timer starts when this visitor began. A token the server handed
 * back with a refusal (`fromServer`) wins over both.
 */
export function useFormToken(fromServer: string | null | undefined): { token: string; onFirstUse: () => void } {
  const [issued, setIssued] = useState('');
  const asked = useRef(false);
  const onFirstUse = useCallback(() => {
    if (asked.current) return;
    asked.current = true;
    fetch(FORM_TOKEN_ACTION, { headers: { Accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' })
      .then((response) => (response.ok ? (response.json() as Promise<{ token?: unknown }>) : null))
      .then((body) => {
        if (typeof body?.token === 'string') setIssued(body.token);
        else asked.current = false;
      })
      .catch(() => {
        // Offline or refused: the next focus asks again; a post without a token is answered with one.
        asked.current = false;
      });
  }, []);
  // Outside the locale layout (a form rendered alone in a test) there is no page token.
  const page = (useShell() as ShellData | undefined)?.formToken ?? '';
  return { token: fromServer || issued || page, onFirstUse };
}
