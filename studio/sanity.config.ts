/**
 * Sanity Studio for the bilingual site. Schemas come from ../schemas (shared with tests and
 * typegen); the menu is in structure.ts / desk.ts.
 */
import '@fontsource-variable/noto-kufi-arabic'
import {languageFilter} from '@sanity/language-filter'
import {visionTool} from '@sanity/vision'
import {defineConfig, type DocumentActionComponent} from 'sanity'
import {structureTool} from 'sanity/structure'
import {API_VERSION} from '../schemas/fields'
import {schemaTypes, singletonTypes, submissionTypeNames} from '../schemas'
import {dataset, projectId} from './env'
import {languageFilterOptions} from './language'
import {structure} from './structure'

/** Singletons keep publish/discard/restore (no delete, duplicate or unpublish). */
const SINGLETON_ACTIONS = new Set(['publish', 'discardChanges', 'restore'])
/** Submissions can only be deleted (e.g. spam or an unsubscribe request). */
const SUBMISSION_ACTIONS = new Set(['delete'])

const keepActions = (actions: DocumentActionComponent[], allowed: Set<string>) =>
  actions.filter((action) => action.action !== undefined && action.action !== null && allowed.has(action.action))

const notCreatable = (typeName: string) => singletonTypes.has(typeName) || submissionTypeNames.has(typeName)

export default defineConfig({
  name: 'default',
  title: 'Bawaba Advisory',
  projectId,
  dataset,
  plugins: [
    structureTool({structure, title: 'Content'}),
    languageFilter(languageFilterOptions),
    visionTool({defaultApiVersion: API_VERSION}),
  ],
  schema: {
    types: schemaTypes,
    templates: (templates) => templates.filter((template) => !notCreatable(template.schemaType)),
  },
  document: {
    actions: (actions, {schemaType}) => {
      if (singletonTypes.has(schemaType)) return keepActions(actions, SINGLETON_ACTIONS)
      if (submissionTypeNames.has(schemaType)) return keepActions(actions, SUBMISSION_ACTIONS)
      return actions
    },
    newDocumentOptions: (options) => options.filter((option) => !notCreatable(option.templateId)),
  },
})
