/**
 * Sanity Studio for the bilingual site. Schemas come from ../schemas (shared with tests and
 * typegen); the menu is in structure.ts / desk.ts.
 */
import '@fontsource-variable/noto-kufi-arabic';
import { languageFilter } from '@sanity/language-filter';
import { visionTool } from '@sanity/vision';
import { defineConfig, type DocumentActionComponent, type DocumentBadgeComponent } from 'sanity';
import { presentationTool } from 'sanity/presentation';
import { structureTool } from 'sanity/structure';
import { API_VERSION } from '../schemas/fields';
import { schemaTypes, singletonTypes } from '../schemas';
import { dataset, lakeApiHost, PREVIEW_MODE_ENABLE_PATH, previewOrigin, projectId, servedBySite } from './env';
import { lakeClientFactory } from './lake-client';
import { languageFilterOptions } from './language';
import { isOfflineSchemaExtract, offlineAuthStore } from './offline-auth';
import { locationResolvers, mainDocumentResolvers } from './presentation-locations';
import { endPreviewOnLeave } from './presentation-session';
import { structure } from './structure';
import { translationsTool } from './TranslationsTool';
import { TRANSLATABLE_TYPES, translationBadge } from './translations';

/** Singletons keep publish/discard/restore (no delete, duplicate or unpublish). */
const SINGLETON_ACTIONS = new Set(['publish', 'discardChanges', 'restore']);

const keepActions = (actions: DocumentActionComponent[], allowed: Set<string>) =>
  actions.filter((action) => action.action !== undefined && action.action !== null && allowed.has(action.action));

/** "Arabic missing: N fields" (or "Arabic complete") from the draft if there is one, else the published document. */
const TranslationBadge: DocumentBadgeComponent = (props) => translationBadge(props.draft, props.published);
const translatableTypes = new Set(TRANSLATABLE_TYPES);

const notCreatable = (typeName: string) => singletonTypes.has(typeName);

export default defineConfig({
  name: 'default',
  title: 'Bawaba Advisory',
  projectId,
  dataset,
  // The local Content Lake (embedded world, app/lake/): only when the site that serves this
  // Studio, or SANITY_STUDIO_API_HOST at build time, names one. A deployed Studio has neither.
  ...(lakeApiHost() ? { apiHost: lakeApiHost(), unstable_clientFactory: lakeClientFactory } : {}),
  // Offline `sanity schema extract` (TypeGen) only; see offline-auth.ts. Undefined = normal login.
  ...(isOfflineSchemaExtract() ? { auth: offlineAuthStore(projectId, dataset) } : {}),
  plugins: [
    structureTool({ structure, title: 'Content' }),
    presentationTool({
      previewUrl: { initial: previewOrigin, previewMode: { enable: PREVIEW_MODE_ENABLE_PATH } },
      resolve: { locations: locationResolvers(), mainDocuments: mainDocumentResolvers() },
    }),
    languageFilter(languageFilterOptions),
    visionTool({ defaultApiVersion: API_VERSION }),
  ],
  // Translations right after Content (the structure tool), before Presentation and Vision.
  // Served by the site, leaving Presentation ends the site's preview session (presentation-session.tsx).
  tools: (tools) => {
    const at = tools.findIndex((tool) => tool.name === 'structure') + 1;
    const ordered = [...tools.slice(0, at), translationsTool, ...tools.slice(at)];
    return servedBySite()
      ? ordered.map((tool) => (tool.name === 'presentation' ? endPreviewOnLeave(tool) : tool))
      : ordered;
  },
  schema: {
    types: schemaTypes,
    templates: (templates) => templates.filter((template) => !notCreatable(template.schemaType)),
  },
  document: {
    badges: (badges, { schemaType }) => (translatableTypes.has(schemaType) ? [...badges, TranslationBadge] : badges),
    actions: (actions, { schemaType }) => {
      if (singletonTypes.has(schemaType)) return keepActions(actions, SINGLETON_ACTIONS);
      return actions;
    },
    newDocumentOptions: (options) => options.filter((option) => !notCreatable(option.templateId)),
  },
});
