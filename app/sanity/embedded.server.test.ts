import { cp, mkdtemp, readFile, rm, writeFile, copyFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedContentClient } from './embedded.server';
import { SHELL_QUERY } from './queries/shell';

const DATASET = path.resolve('studio/dataset/production.ndjson');
let dataDir: string;
const clients: EmbeddedContentClient[] = [];
const open = (opts: Partial<ConstructorParameters<typeof EmbeddedContentClient>[0]> = {}) => {
  const c = new EmbeddedContentClient({ datasetFile: DATASET, dataDir, ...opts });
  clients.push(c);
  return c;
};

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'content-'));
});
afterEach(async () => {
  clients.splice(0).forEach((c) => c.close());
  await rm(dataDir, { recursive: true, force: true });
});

describe('embedded content client: real queries over the bundled dataset', () => {
  it('answers the shell query in English and Arabic, matching its schema', async () => {
    const client = open();
    for (const lang of ['en', 'ar'] as const) {
      const result = SHELL_QUERY.schema.parse(
        await client.fetch(SHELL_QUERY.query, { lang }, { perspective: 'published' }),
      );
      expect(result.settings.brandName).toBe(lang === 'en' ? 'Bawaba Advisory' : 'بوابة للاستشارات');
      expect(result.offices.map((o) => o.key)).toEqual(['dubai', 'singapore']);
      expect(result.settings.headerNavigation.map((l) => l.href)).toEqual([
        '/',
        '/about',
        '/services',
        '/case-studies',
        '/blog',
        '/faq',
      ]);
      expect(result.settings.logo?.asset.url).toMatch(/^\/images\/embedded\/production\/[0-9a-f]{40}-\d+x\d+\.png$/);
    }
  });

  it('falls back to English where a translation is missing', async () => {
    const client = open();
    const title = await client.fetch<string>(
      `*[_id == "siteSettings"][0]{"t": coalesce(missing[$lang], brandName.en)}.t`,
      { lang: 'ar' },
      { perspective: 'published' },
    );
    expect(title).toBe('Bawaba Advisory');
  });

  it('turns _sanityAsset image references into asset documents the way an import does', async () => {
    const client = open();
    const logo = await client.fetch<{ _id: string; metadata: { dimensions: { width: number } } }>(
      `*[_id == "siteSettings"][0].logo.asset->`,
      {},
      { perspective: 'published' },
    );
    expect(logo._id).toMatch(/^image-[0-9a-f]{40}-\d+x\d+-png$/);
    expect(logo.metadata.dimensions.width).toBeGreaterThan(0);
    const file = await client.imageAsset(logo._id.replace(/^image-/, '').replace(/-png$/, '.png'));
    expect(file?.mimeType).toBe('image/png');
  });
});

describe('perspectives', () => {
  it('published hides drafts; drafts shows them over their published twins', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'dataset-'));
    const file = path.join(dir, 'production.ndjson');
    await writeFile(
      file,
      [
        { _id: 'service-x', _type: 'service', title: { en: 'Published title' } },
        { _id: 'drafts.service-x', _type: 'service', title: { en: 'Draft title' } },
        { _id: 'drafts.blogPost-new', _type: 'blogPost', title: { en: 'Unpublished' } },
      ]
        .map((d) => JSON.stringify(d))
        .join('\n'),
    );
    const client = open({ datasetFile: file });
    const q = `*[_type in ["service", "blogPost"]] | order(_id asc){ _id, "title": title.en }`;
    expect(await client.fetch(q, {}, { perspective: 'published' })).toEqual([
      { _id: 'service-x', title: 'Published title' },
    ]);
    expect(await client.fetch(q, {}, { perspective: 'drafts' })).toEqual([
      { _id: 'blogPost-new', title: 'Unpublished' },
      { _id: 'service-x', title: 'Draft title' },
    ]);
    await rm(dir, { recursive: true, force: true });
  });
});

describe('writes', () => {
  const question = (id: string) => ({
    _id: `test.question.${id}` as const,
    _type: 'testQuestion',
    name: 'Layla',
    email: 'layla@example.com',
    question: 'Do I need a local sponsor?',
  });

  it('a write is on disk when acknowledged and visible to the next read', async () => {
    const client = open();
    await client.create(question('a1'));
    const log = await readFile(path.join(dataDir, 'content-writes.ndjson'), 'utf8');
    expect(log).toContain('"test.question.a1"');
    const found = await client.fetch(`*[_type == "testQuestion"]{ _id, name }`, {}, { perspective: 'published' });
    expect(found).toEqual([{ _id: 'test.question.a1', name: 'Layla' }]);
  });

  it('survives a restart: a new client reads what the old one stored', async () => {
    await open().create(question('b2'));
    const restarted = open();
    expect(await restarted.fetch(`count(*[_type == "testQuestion"])`, {}, { perspective: 'published' })).toBe(1);
  });

  it('createIfNotExists keeps one record for the same id', async () => {
    const client = open();
    const doc = { _id: 'test.signup.abc' as const, _type: 'testSignup', email: 'a@b.co' };
    expect((await client.createIfNotExists(doc)).created).toBe(true);
    expect((await client.createIfNotExists(doc)).created).toBe(false);
    expect(await client.fetch(`count(*[_type == "testSignup"])`, {}, { perspective: 'published' })).toBe(1);
  });

  it('refuses to write public documents and duplicate ids', async () => {
    const client = open();
    await expect(client.create({ _id: 'service-x' as `${string}.${string}`, _type: 'service' })).rejects.toThrow(
      /private/,
    );
    await client.create(question('c3'));
    await expect(client.create(question('c3'))).rejects.toThrow(/exists/);
  });

  it('ignores a torn last line left by a crash mid-write', async () => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(
      path.join(dataDir, 'content-writes.ndjson'),
      JSON.stringify(question('ok')) + '\n{"_id":"test.quest',
    );
    const client = open();
    expect(await client.fetch(`*[_type == "testQuestion"]._id`, {}, { perspective: 'published' })).toEqual([
      'test.question.ok',
    ]);
  });

  it('tells listeners which document type changed', async () => {
    const client = open();
    const seen: unknown[] = [];
    client.onChange((types) => seen.push(types === 'all' ? 'all' : [...types]));
    await client.create(question('d4'));
    expect(seen).toEqual([['testQuestion']]);
  });
});

describe('reloading', () => {
  it('reloads the dataset when its file changes and tells listeners', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'dataset-'));
    const file = path.join(dir, 'production.ndjson');
    await copyFile(DATASET, file);
    await cp(path.resolve('studio/dataset/images'), path.join(dir, 'images'), { recursive: true });
    const client = open({ datasetFile: file, watch: true });
    await client.whenReady();
    const changed = new Promise((resolve) => client.onChange(resolve));
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"Bawaba Advisory"', '"Bawaba Advisory Group"'));
    expect(await changed).toBe('all');
    expect(await client.fetch(`*[_id == "siteSettings"][0].brandName.en`, {}, { perspective: 'published' })).toBe(
      'Bawaba Advisory Group',
    );
    await rm(dir, { recursive: true, force: true });
  });
});
