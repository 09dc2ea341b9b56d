import { describe, expect, it } from 'vitest';
import { applyPerspective } from './perspective';

const docs = [
  { _id: 'a', _type: 't', title: 'A published' },
  { _id: 'drafts.a', _type: 't', title: 'A draft' },
  { _id: 'drafts.b', _type: 't', title: 'B never published' },
  { _id: 'versions.r1.a', _type: 't', title: 'A in a release' },
  { _id: 'c', _type: 't', title: 'C' },
];

describe('applyPerspective', () => {
  it('published hides drafts and release versions', () => {
    expect(applyPerspective(docs, 'published').map((d) => d.title)).toEqual(['A published', 'C']);
  });

  it('drafts lays each draft over its twin and keeps unpublished drafts, under the bare id', () => {
    const out = applyPerspective(docs, 'drafts');
    expect(out.map((d) => [d._id, d.title, d._originalId])).toEqual([
      ['a', 'A draft', 'drafts.a'],
      ['c', 'C', undefined],
      ['b', 'B never published', 'drafts.b'],
    ]);
  });
});
