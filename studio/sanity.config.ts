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
import { structureWordingFixes } from './studio-locale';
import { translationsTool } from './TranslationsTool';
import { TRANSLATABLE_TYPES, translationBadge } from './translations';
import { uploadMessages } from './upload-messages';

/** Singletons keep publish/discard/restore (no delete, duplicate or unpublish). */
const SINGLETON_ACTIONS = new Set(['publish', 'discardChanges', 'restore']);

const keepActions = (actions: DocumentActionComponent[], allowed: Set<string>) =>
  actions.filter((action) => action.action !== undefined && action.action !== null && allowed.has(action.action));

/** "Arabic missing: N fields" (or "Arabic complete") from the draft if there is one, else the published document. */
const TranslationBadge: DocumentBadgeComponent = (props) => translationBadge(props.draft, props.published);
const translatableTypes = new Set(TRANSLATABLE_TYPES);

const notCreatable = (typeName: string) => singletonTypes.has(typeName);

/**
 * What Sanity's hosted services provide and the local Content Lake does not (ADR 0025): turned
 * off, so the Studio offers no button that would do nothing (tasks, content releases, scheduled
 * drafts and publishing, product announcements, the Media Library). Comments: `document` below.
 */
const OFFLINE_FEATURES = {
  tasks: { enabled: false },
  releases: { enabled: false },
  scheduledDrafts: { enabled: false },
  scheduledPublishing: { enabled: false },
  announcements: { enabled: false },
  mediaLibrary: { enabled: false },
} as const;

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
  ...OFFLINE_FEATURES,
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
  // Sanity's wordings the lake's editors need mended (studio-locale.ts), and the image field's
  // message when the lake refuses an upload names what it accepts (upload-messages.ts).
  i18n: { bundles: [structureWordingFixes, uploadMessages] },
  schema: {
    types: schemaTypes,
    templates: (templates) => templates.filter((template) => !notCreatable(template.schemaType)),
  },
  document: {
    // Comments need Sanity's hosted comment store; the lake has none (ADR 0025, issue 39).
    comments: { enabled: false },
    badges: (badges, { schemaType }) => (translatableTypes.has(schemaType) ? [...badges, TranslationBadge] : badges),
    actions: (actions, { schemaType }) => {
      if (singletonTypes.has(schemaType)) return keepActions(actions, SINGLETON_ACTIONS);
      return actions;
    },
    newDocumentOptions: (options) => options.filter((option) => !notCreatable(option.templateId)),
  },
});
