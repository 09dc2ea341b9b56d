import { VisualEditing } from '@sanity/visual-editing/remix';

/**
 * Loaded lazily by VisualEditing.tsx, in hosted preview sessions only.
 *
 * The Remix adapter brings the Presentation tool's history (the Studio's URL bar follows the
 * page and can navigate it) and its default refresh: when a document changes in the Studio,
 * or an editor presses reload, it revalidates the Remix loaders, which read the drafts
 * perspective again (uncached in a preview session). Live mode from @sanity/react-loader is
 * not used: it needs every route to re-run its query in the browser through useQuery, while
 * our loaders validate and shape their results on the server; revalidating shows the same
 * edit a moment later without a second data path.
 */
export default function VisualEditingOverlays() {
  return <VisualEditing />;
}
