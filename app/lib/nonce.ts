import { createContext, useContext } from 'react';

/**
 * The nonce every inline or external <script> must carry on the server render (the
 * Content-Security-Policy allows no other). entry.server.tsx provides it; in the browser it
 * is undefined, which is right: browsers hide nonces from the DOM, and React does not
 * touch attributes when it hydrates.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
