import { useCallback, useRef, useState } from 'react';
import { FORM_TOKEN_ACTION } from './fields';

/**
 * The form's signed start time for the spam timer (spam-check.ts), issued when the form is
 * first used rather than carried by the page (so pages are the same for every visitor and can
 * be cached, ADR 0010): `onFirstUse` (a field focused or pressed) asks GET /api/form-token
 * once. A token the server handed back with a refusal (`fromServer`) wins. Without JavaScript
 * the first post carries none and its answer brings one.
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
  return { token: fromServer || issued, onFirstUse };
}
