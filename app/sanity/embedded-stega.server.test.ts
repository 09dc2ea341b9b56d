import { stegaClean } from '@sanity/client/stega';
import { vercelStegaDecode } from '@vercel/stega';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedContentClient } from './embedded.server';
import type { SanityDocument } from './types';

/**
 * The embedded world's preview over the local Content Lake (issue 39): preview reads carry
 * Sanity's stega edit links (groq-js has no content source map), visitors' reads never do, and
 * the Studio's preview secrets stored in the lake are never read by the site.
 */
const DATASET = path.resolve('studio/dataset/production.ndjson');
let dataDir: string;
let client: EmbeddedContentClient;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'content-'));
  client = new EmbeddedContentClient({ datasetFile: DATASET, dataDir });
});
afterEach(async () => {
  client.close();
  await rm(dataDir, { recursive: true, force: true });
});

const QUESTION = '*[_id == "faqItem-bank-account"][0]{ _id, "question": question.en, "slug": _id }';

describe('embedded preview reads', () => {
  it('carry edit links to the Studio (the draft id, the field path) in localized text only, for preview reads only', async () => {
    const overlay = new Map<string, SanityDocument | null>([
      [
        'drafts.faqItem-bank-account',
        {
          _id: 'drafts.faqItem-bank-account',
          _type: 'faqItem',
          question: { _type: 'localeString', en: 'A draft question', ar: '' },
        },
      ],
    ]);
    client.setOverlay(() => overlay);
    client.setStega('/studio');
    const preview = await client.fetch<{ question: string; slug: string }>(
      QUESTION,
      {},
      { perspective: 'drafts', preview: true },
    );
    expect(stegaClean(preview.question)).toBe('A draft question');
    expect(preview.question).not.toBe('A draft question');
    const link = vercelStegaDecode(preview.question) as { origin: string; href: string };
    expect(link.origin).toBe('sanity.io');
    expect(link.href).toMatch(/^\/studio\/intent\/edit\/mode=presentation;id=faqItem-bank-account;type=faqItem;/);
    expect(decodeURIComponent(link.href)).toContain('path=question.en');
    // The draft's edit link does not pin the published perspective (its id was the draft's).
    expect(link.href).not.toContain('perspective=published');
    // Identifiers are never encoded.
    expect(preview.slug).toBe('faqItem-bank-account');
    // Visitors' reads (and a preview read without a Studio) carry none.
    const visitor = await client.fetch<{ question: string }>(QUESTION, {}, { perspective: 'published' });
    expect(visitor.question).toBe(stegaClean(visitor.question));
  });

  it("never shows the Studio's preview secrets to a read of the site, in any perspective", async () => {
    const secret = {
      _id: 'drafts.5b1e2c3d',
      _type: 'sanity.previewUrlSecret',
      secret: 'the-studio-secret',
    } as SanityDocument;
    client.setOverlay(() => new Map([[secret._id, secret]]));
    const query = '*[_type == "sanity.previewUrlSecret" || secret == "the-studio-secret"]';
    for (const perspective of ['published', 'drafts'] as const)
      expect(await client.fetch(query, {}, { perspective, preview: perspective === 'drafts' })).toEqual([]);
  });
});
