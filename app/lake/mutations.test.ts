import { describe, expect, it } from 'vitest';
import { actionsToMutations, applyMutations, checkReferences, LakeError, type LakeDocument } from './mutations';

const doc = (id: string, fields: Record<string, unknown> = {}, rev = 'r0'): LakeDocument => ({
  _id: id,
  _type: 'faqItem',
  _rev: rev,
  _createdAt: '2026-01-01T00:00:00Z',
  _updatedAt: '2026-01-01T00:00:00Z',
  ...fields,
});

const state = (...docs: LakeDocument[]) => {
  const map = new Map(docs.map((d) => [d._id, d]));
  return (id: string) => map.get(id) ?? null;
};

describe('applyMutations', () => {
  it('creates, patches with Sanity paths (set, setIfMissing, unset, insert, inc, dec), and stamps _rev/_updatedAt', () => {
    const read = state(doc('a', { question: { en: 'Q', ar: '' }, tags: [{ _key: 'k1', v: 1 }], n: 5 }));
    const out = applyMutations(
      read,
      [
        { patch: { id: 'a', set: { 'question.ar': 'سؤال' } } },
        { patch: { id: 'a', setIfMissing: { extra: 'x', n: 0 } } },
        { patch: { id: 'a', insert: { after: 'tags[_key=="k1"]', items: [{ _key: 'k2', v: 2 }] } } },
        { patch: { id: 'a', inc: { n: 2 } } },
        { patch: { id: 'a', dec: { n: 1 } } },
        { patch: { id: 'a', unset: ['question.en'] } },
        { create: { _id: 'b', _type: 'faqItem' } },
      ],
      'r1',
      '2026-02-02T00:00:00Z',
    );
    const a = out.get('a')!;
    expect(a.question).toEqual({ ar: 'سؤال' });
    expect(a.extra).toBe('x');
    expect(a.n).toBe(6);
    expect((a.tags as { _key: string }[]).map((t) => t._key)).toEqual(['k1', 'k2']);
    expect(a._rev).toBe('r1');
    expect(a._updatedAt).toBe('2026-02-02T00:00:00Z');
    expect(a._createdAt).toBe('2026-01-01T00:00:00Z');
    expect(out.get('b')?._rev).toBe('r1');
  });

  it('applies diffMatchPatch as the Studio sends it for typing', () => {
    const read = state(doc('a', { title: 'Hello world' }));
    const out = applyMutations(
      read,
      [{ patch: { id: 'a', diffMatchPatch: { title: '@@ -1,5 +1,5 @@\n-Hello\n+Hallo\n' } } }],
      'r1',
      'now',
    );
    expect(out.get('a')?.title).toBe('Hallo world');
  });

  it('fails the whole transaction on a stale ifRevisionID, a create of an existing id, a patch of a missing one', () => {
    const read = state(doc('a'));
    const fails = (m: Record<string, unknown>[]) =>
      expect(() => applyMutations(read, m, 'r1', 'now')).toThrow(LakeError);
    fails([{ patch: { id: 'a', ifRevisionID: 'other', set: { x: 1 } } }]);
    fails([{ create: { _id: 'b', _type: 't' } }, { create: { _id: 'a', _type: 't' } }]);
    fails([{ patch: { id: 'missing', set: { x: 1 } } }]);
    fails([{ create: { _id: 'bad id!', _type: 't' } }]);
    // Never the site's private documents (an id with a period) nor release versions.
    fails([{ create: { _id: 'submission.abc', _type: 'submission' } }]);
    fails([{ createOrReplace: { _id: 'drafts.submission.abc', _type: 'submission' } }]);
    fails([{ delete: { id: 'submission.abc' } }]);
    fails([{ create: { _id: 'versions.r1.a', _type: 'faqItem' } }]);
    expect(
      applyMutations(read, [{ patch: { id: 'a', ifRevisionID: 'r0', set: { x: 1 } } }], 'r1', 'now').get('a')?.x,
    ).toBe(1);
  });

  it('deletes, createIfNotExists keeps an existing document, createOrReplace keeps _createdAt', () => {
    const read = state(doc('a', { x: 1 }), doc('c'));
    const out = applyMutations(
      read,
      [
        { delete: { id: 'a' } },
        { createIfNotExists: { _id: 'c', _type: 't', x: 2 } },
        { createOrReplace: { _id: 'c', _type: 'faqItem', y: 3 } },
      ],
      'r1',
      'now',
    );
    expect(out.get('a')).toBeNull();
    expect(out.get('c')).toMatchObject({ y: 3, _createdAt: '2026-01-01T00:00:00Z' });
    expect(out.get('c')?.x).toBeUndefined();
  });
});

describe('actionsToMutations (the Studio’s document actions)', () => {
  const published = doc('faq-1', { question: { en: 'Q', ar: '' } });

  it('edit makes the draft from the published document, then patches it; publish moves it and removes the draft', () => {
    const read = state(published);
    const edit = actionsToMutations(read, [
      {
        actionType: 'sanity.action.document.edit',
        draftId: 'drafts.faq-1',
        publishedId: 'faq-1',
        patch: { set: { 'question.ar': 'س' } },
      },
    ]);
    const afterEdit = applyMutations(read, edit, 'r1', 'now');
    const draft = afterEdit.get('drafts.faq-1')!;
    expect(draft.question).toEqual({ en: 'Q', ar: 'س' });
    const read2 = state(published, draft);
    const publish = actionsToMutations(read2, [
      {
        actionType: 'sanity.action.document.publish',
        draftId: 'drafts.faq-1',
        publishedId: 'faq-1',
        ifDraftRevisionId: 'r1',
      },
    ]);
    const afterPublish = applyMutations(read2, publish, 'r2', 'now');
    expect(afterPublish.get('faq-1')).toMatchObject({ _id: 'faq-1', question: { ar: 'س' }, _rev: 'r2' });
    expect(afterPublish.get('drafts.faq-1')).toBeNull();
    expect(() =>
      actionsToMutations(read2, [
        {
          actionType: 'sanity.action.document.publish',
          draftId: 'drafts.faq-1',
          publishedId: 'faq-1',
          ifDraftRevisionId: 'stale',
        },
      ]),
    ).toThrow(LakeError);
  });

  it('create, unpublish, discard and delete', () => {
    const read = state(published, doc('drafts.faq-2'));
    const out = applyMutations(
      read,
      actionsToMutations(read, [
        {
          actionType: 'sanity.action.document.create',
          publishedId: 'new-1',
          attributes: { _id: 'drafts.new-1', _type: 'blogPost' },
        },
        { actionType: 'sanity.action.document.unpublish', draftId: 'drafts.faq-1', publishedId: 'faq-1' },
        { actionType: 'sanity.action.document.discard', draftId: 'drafts.faq-2' },
      ]),
      'r1',
      'now',
    );
    expect(out.get('drafts.new-1')?._type).toBe('blogPost');
    expect(out.get('faq-1')).toBeNull();
    expect(out.get('drafts.faq-1')?.question).toEqual({ en: 'Q', ar: '' });
    expect(out.get('drafts.faq-2')).toBeNull();
    const del = applyMutations(
      read,
      actionsToMutations(read, [
        { actionType: 'sanity.action.document.delete', publishedId: 'faq-1', includeDrafts: ['drafts.faq-1'] },
      ]),
      'r2',
      'now',
    );
    expect(del.get('faq-1')).toBeNull();
  });

  it('discardVersion deletes a draft that was never published (the Studio’s "Delete all versions" then)', () => {
    const read = state(doc('drafts.new-1'));
    const out = applyMutations(
      read,
      actionsToMutations(read, [{ actionType: 'sanity.action.document.version.discard', versionId: 'drafts.new-1' }]),
      'r1',
      'now',
    );
    expect([...out]).toEqual([['drafts.new-1', null]]);
    // A missing draft, a published id, a release version: refused, nothing deleted.
    for (const [versionId, status] of [
      ['drafts.missing', 409],
      ['new-1', 400],
      ['versions.r1.new-1', 403],
    ] as const)
      expect(() =>
        actionsToMutations(read, [{ actionType: 'sanity.action.document.version.discard', versionId }]),
      ).toThrow(expect.objectContaining({ status }));
  });

  it('refuses release (version) actions: the lake has no releases', () => {
    expect(() => actionsToMutations(state(), [{ actionType: 'sanity.action.document.version.create' }])).toThrow(
      /does not support/,
    );
  });
});

describe('checkReferences (referential integrity, as a hosted project keeps it)', () => {
  const category = doc('faqCategory-a', { _type: 'faqCategory' });
  const question = doc('faq-1', { category: { _type: 'reference', _ref: 'faqCategory-a' } });
  const all = [category, question, doc('faq-2')];

  it('refuses to delete or unpublish a document another one refers to with a strong reference', () => {
    for (const changed of [
      new Map([['faqCategory-a', null]]),
      // Unpublished: the published document goes, its draft stays (and may refer to itself).
      new Map<string, LakeDocument | null>([
        ['faqCategory-a', null],
        ['drafts.faqCategory-a', doc('drafts.faqCategory-a', { self: { _ref: 'faqCategory-a' } })],
      ]),
    ])
      expect(() => checkReferences(changed, all)).toThrow(
        expect.objectContaining({
          status: 409,
          type: 'documentHasExistingReferencesError',
          message: 'Document "faqCategory-a" cannot be deleted as there are references to it from "faq-1"',
        }),
      );
    // A draft's strong reference protects it too; one created in the same transaction as well.
    expect(() =>
      checkReferences(
        new Map([
          ['faqCategory-a', null],
          ['faq-1', null],
          ['drafts.new', doc('drafts.new', { category: { _ref: 'faqCategory-a' } })],
        ]),
        all,
      ),
    ).toThrow(/from "drafts.new"/);
  });

  it('lets a document go when nothing refers to it, only weakly, or its referrers go with it', () => {
    expect(() => checkReferences(new Map([['faq-2', null]]), all)).not.toThrow();
    expect(() =>
      checkReferences(new Map([['faqCategory-a', null]]), [
        category,
        doc('faq-1', { category: { _ref: 'faqCategory-a', _weak: true } }),
      ]),
    ).not.toThrow();
    expect(() =>
      checkReferences(
        new Map([
          ['faqCategory-a', null],
          ['faq-1', null],
        ]),
        all,
      ),
    ).not.toThrow();
    // A draft's deletion never breaks a reference (references name published ids).
    expect(() => checkReferences(new Map([['drafts.faqCategory-a', null]]), all)).not.toThrow();
  });
});
