import { describe, expect, it } from 'vitest';
import { toImportFormat } from './export.server';

describe('toImportFormat', () => {
  it('writes image references as _sanityAsset files, leaves out asset documents and private ids, keeps drafts', () => {
    const { lines, images } = toImportFormat([
      { _id: 'image-abc-10x10-jpg', _type: 'sanity.imageAsset', path: 'images/embedded/production/abc-10x10.jpg' },
      {
        _id: 'post-1',
        _type: 'blogPost',
        _rev: 'r',
        mainImage: { _type: 'image', alt: { en: 'A' }, asset: { _type: 'reference', _ref: 'image-abc-10x10-jpg' } },
      },
      { _id: 'drafts.post-1', _type: 'blogPost' },
      { _id: 'submission.x1', _type: 'submission' },
      { _id: 'drafts.submission.x2', _type: 'submission' },
    ]);
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { _id: 'drafts.post-1', _type: 'blogPost' },
      {
        _id: 'post-1',
        _type: 'blogPost',
        mainImage: { _type: 'image', alt: { en: 'A' }, _sanityAsset: 'image@file://./images/abc-10x10.jpg' },
      },
    ]);
    expect([...images]).toEqual(['abc-10x10.jpg']);
  });
});
