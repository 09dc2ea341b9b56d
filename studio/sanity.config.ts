/**
 * Sanity Studio for the bilingual site. Schemas come from ../schemas (shared with tests and
 * typegen); the menu is in structure.ts / desk.ts.
 */
import '@fontsource-variable/noto-kufi-arabic'
import {languageFilter, type FilterFieldFunction} from '@sanity/language-filter'
import {visionTool} from '@sanity/vision'
import {defineConfig, type DocumentActionComponent} from 'sanity'
import {structureTool} from 'sanity/structure'
import {API_VERSION} from '../schemas/fields'
import {LANGUAGES, LOCALE_TYPE_NAMES, schemaTypes, singletonTypes, submissionTypeNames, typesWithLocaleFields} from '../schemas'
import {dataset, projectId} from './env'
import {structure} from './structure'

const languageIds = new Set<string>(LANGUAGES.map((language) => language.id))
const localeTypeNames = new Set<string>(LOCALE_TYPE_NAMES)

/** True when a schema type is, or derives from, one of the locale objects. */
function isLocaleType(type: {name: string; type?: unknown} | undefined): boolean {
  for (let current = type; current; current = current.type as typeof type) {
    if (localeTypeNames.has(current.name)) return true
  }
  return false
}

/** Hide the `en`/`ar` members of locale objects whose language is not selected; leave everything else alone. */
export const filterLocaleField: FilterFieldFunction = (enclosingType, member, selectedLanguageIds) =>
  !isLocaleType(enclosingType) || !languageIds.has(member.name) || selectedLanguageIds.includes(member.name)

/**
 * No language is pinned: the plugin makes "default" languages impossible to hide, and
 * translators need Arabic only, English only, or both side by side (both on by default).
 */
const DEFAULT_LANGUAGES: string[] = []

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
    languageFilter({
      supportedLanguages: LANGUAGES.map(({id, title}) => ({id, title})),
      defaultLanguages: DEFAULT_LANGUAGES,
      documentTypes: typesWithLocaleFields(),
      filterField: filterLocaleField,
    }),
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
