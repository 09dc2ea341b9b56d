/**
 * Words the Studio's own English bundles get wrong, mended through its i18n configuration (no
 * patched framework, ADR 0022). Sanity 4.22.1, and its main branch when this was written:
 * - the history panel's close button reads `changes.action.close-label` from the structure
 *   namespace, where no bundle defines it (only the core `studio` one does), so screen readers
 *   announced the raw key;
 * - the panel's banner names the Studio's selected perspective ("Drafts" unless another is picked),
 *   not the version it shows: after a publish it said "the Draft version" of a document that has
 *   no draft. It says what it shows, this document's history, whichever version that is.
 * Bundles of the same locale and namespace are merged with Sanity's own; later versions that fix
 * these keys lose nothing.
 */
import { defineLocaleResourceBundle } from 'sanity';
import { structureLocaleNamespace } from 'sanity/structure';

export const structureWordingFixes = defineLocaleResourceBundle({
  locale: 'en-US',
  namespace: structureLocaleNamespace,
  resources: {
    'changes.action.close-label': 'Close history',
    'changes.banner.description': 'Showing the history of this document.',
  },
});
