/**
 * The committed TypeGen output is up to date: regenerates the schema (offline extraction) and
 * the types into a temporary folder with scripts/typegen.sh, and compares them with
 * studio/schema.json and app/sanity/sanity.types.ts. Fix a failure with `bash scripts/typegen.sh`.
 */
import {execFile} from 'node:child_process'
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '..')

interface TypegenConfig {
  path: string | string[]
  schema: string
  generates: string
  [option: string]: unknown
}

describe('Sanity TypeGen output', () => {
  let dir = ''
  let config: TypegenConfig
  let fresh = {schema: '', types: ''}

  beforeAll(async () => {
    config = JSON.parse(await readFile(path.join(root, 'sanity-typegen.json'), 'utf8')) as TypegenConfig
    dir = await mkdtemp(path.join(tmpdir(), 'typegen-'))
    // Same settings, written into the temporary folder. The schema keeps its file name, which
    // the generated header mentions.
    const schemaPath = path.join(dir, path.basename(config.schema))
    const typesPath = path.join(dir, path.basename(config.generates))
    const configPath = path.join(dir, 'sanity-typegen.json')
    await writeFile(configPath, JSON.stringify({...config, schema: schemaPath, generates: typesPath}))
    await run('bash', [path.join(root, 'scripts/typegen.sh')], {
      cwd: root,
      env: {...process.env, TYPEGEN_SCHEMA_PATH: schemaPath, TYPEGEN_CONFIG: configPath},
      maxBuffer: 16 * 1024 * 1024,
    })
    fresh = {schema: await readFile(schemaPath, 'utf8'), types: await readFile(typesPath, 'utf8')}
  }, 240_000)

  afterAll(async () => {
    if (dir) await rm(dir, {recursive: true, force: true})
  })

  it('writes the schema to studio/schema.json and the types into the app', () => {
    expect(path.normalize(config.schema)).toBe(path.normalize('./studio/schema.json'))
    expect(path.normalize(config.generates)).toBe(path.normalize('./app/sanity/sanity.types.ts'))
  })

  it('has an up-to-date studio/schema.json (run `bash scripts/typegen.sh`)', async () => {
    const committed = await readFile(path.join(root, config.schema), 'utf8')
    expect(committed === fresh.schema, 'studio/schema.json is out of date: run `bash scripts/typegen.sh`').toBe(true)
  })

  it('has up-to-date generated types (run `bash scripts/typegen.sh`)', async () => {
    const committed = await readFile(path.join(root, config.generates), 'utf8')
    expect(committed === fresh.types, 'app/sanity/sanity.types.ts is out of date: run `bash scripts/typegen.sh`').toBe(true)
  })

  it('generates a type for every document type, with localized fields as locale objects', () => {
    for (const name of ['SiteSettings', 'Office', 'Service', 'BlogPost', 'FaqItem', 'LocaleString', 'LocaleText', 'LocaleBlockContent']) {
      expect(fresh.types).toContain(`export type ${name} = {`)
    }
    expect(fresh.types).toMatch(/export type Office = \{[^}]*\n {2}city: LocaleString;/)
  })
})
