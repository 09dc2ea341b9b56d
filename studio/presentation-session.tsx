import { useEffect } from 'react';
import { useClient, useCurrentUser, type Tool } from 'sanity';

/**
 * When an editor leaves the Presentation tool (another tool, or the Studio's tab closes), the
 * site's preview session ends (/api/preview/exit clears its cookie: the editor's browser does not
 * stay in drafts on the public site) and the preview secrets this editor's visits stored in the
 * lake are deleted (the Presentation tool itself deletes only those older than an hour). Only
 * for the Studio the site serves, whose preview is the same origin. Wraps the tool's component:
 * `Tool.component` is the same in Sanity 4.22 and 5.x.
 */
export function endPreviewOnLeave(tool: Tool): Tool {
  const Inner = tool.component;
  function PresentationEndingPreview(props: { tool: Tool }) {
    const client = useClient({ apiVersion: '2025-02-19' });
    const user = useCurrentUser();
    const userId = user?.id;
    useEffect(() => {
      const exit = () =>
        void fetch('/api/preview/exit', {
          method: 'POST',
          credentials: 'same-origin',
          keepalive: true,
          redirect: 'manual',
        }).catch(() => {});
      const deletion = { mutations: [{ delete: { query: PREVIEW_SECRETS_OF, params: { userId } } }] };
      // The tab closes: only a keepalive request outlives the page. It carries the token, so a lake
      // on another origin (a fresh clone's port) needs a preflight, which Chromium does not make
      // for one: those secrets expire within the hour and the Studio's own clean-up removes them.
      const onPageHide = () => {
        exit();
        const { token } = client.config();
        if (userId)
          void fetch(client.getUrl(client.getDataUrl('mutate')), {
            method: 'POST',
            keepalive: true,
            headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
            body: JSON.stringify(deletion),
          }).catch(() => {});
      };
      window.addEventListener('pagehide', onPageHide);
      return () => {
        // Another tool of the Studio: the page stays, so the client's own request is sent.
        window.removeEventListener('pagehide', onPageHide);
        exit();
        if (userId)
          void client
            .delete({ query: PREVIEW_SECRETS_OF, params: { userId } })
            .catch((error: unknown) => console.warn('[preview] secrets not deleted', error));
      };
    }, [client, userId]);
    return <Inner {...props} />;
  }
  return { ...tool, component: PresentationEndingPreview };
}

/** The preview secrets (@sanity/preview-url-secret's type) one editor's visits stored. */
export const PREVIEW_SECRETS_OF = '*[_type == "sanity.previewUrlSecret" && userId == $userId]';
