import { sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installDatabase, openTestDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { createLakeHandler, documentEvents } from './api.server';
import { addEditor, editorFromRequest } from './editors.server';
import { lakeSecretCheck, sweepExpiredSecrets } from './preview-secret.server';
import { LakeStore, type LakeTransaction } from './store.server';

/**
 * The lake's store and HTTP API on both engines: edits are one database transaction each, survive
 * a reopen, are layered over the bundled dataset, and reach listeners with chained revisions and
 * whole-document mendoza effects; only an editor's token opens the API.
 */
process.env.SESSION_SECRET ??= 'lake-unit-test-secret-0123456789-0123456789';

const BASE = [
  { _id: 'faq-1', _type: 'faqItem', question: { _type: 'localeString', en: 'Q1', ar: '' } },
  { _id: 'faq-2', _type: 'faqItem', question: { _type: 'localeString', en: 'Q2', ar: 'س٢' } },
];

for (const kind of testDatabaseKinds()) {
  describe(`the lake's store (${kind})`, () => {
    let database: Database;
    let store: LakeStore;
    beforeEach(async () => {
      database = await openTestDatabase(kind);
      store = new LakeStore(database.db);
      await store.open(BASE);
    });
    afterEach(() => database.close());

    it('layers edits over the bundled dataset, durably, and records each transaction with before/after', async () => {
      const seen: LakeTransaction[] = [];
      store.onCommit((tx) => seen.push(tx));
      const edit = await store.act(
        [
          {
            actionType: 'sanity.action.document.edit',
            draftId: 'drafts.faq-1',
            publishedId: 'faq-1',
            patch: { set: { 'question.ar': 'سؤال' } },
          },
        ],
        'editor-1',
      );
      expect(store.get('drafts.faq-1')?.question).toMatchObject({ ar: 'سؤال' });
      expect(store.get('faq-1')?._rev).toBe('bundled');
      const publish = await store.act(
        [{ actionType: 'sanity.action.document.publish', draftId: 'drafts.faq-1', publishedId: 'faq-1' }],
        'editor-1',
      );
      expect(store.get('faq-1')).toMatchObject({ _rev: publish.id, question: { ar: 'سؤال' } });
      expect(store.get('drafts.faq-1')).toBeNull();
      await store.mutate([{ delete: { id: 'faq-2' } }], 'editor-1');
      expect(
        store
          .all()
          .map((d) => d._id)
          .sort(),
      ).toEqual(['faq-1']);
      expect(seen.map((t) => t.id)).toEqual([edit.id, publish.id, expect.any(String)]);
      const pubEffect = publish.effects.find((e) => e.id === 'faq-1')!;
      expect(pubEffect.previousRev).toBe('bundled');
      expect(pubEffect.resultRev).toBe(publish.id);

      // A new store over the same database (a restart) sees the same state and history.
      const again = new LakeStore(database.db);
      await again.open(BASE);
      expect(again.get('faq-1')?.question).toMatchObject({ ar: 'سؤال' });
      expect(again.get('faq-2')).toBeNull();
      const history = await again.transactions(['faq-1', 'drafts.faq-1']);
      expect(history.map((t) => t.id)).toEqual([edit.id, publish.id]);
      expect((await again.revision('faq-1', 'bundled'))?.question).toMatchObject({ ar: '' });
      expect((await again.revision('drafts.faq-1', edit.id))?.question).toMatchObject({ ar: 'سؤال' });
      expect(documentEvents(history, 'faq-1')[0]).toMatchObject({
        type: 'publishDocumentVersion',
        revisionId: publish.id,
      });
    });

    it('a failed condition changes nothing, in memory or in the database', async () => {
      await expect(
        store.mutate(
          [
            { createOrReplace: { _id: 'faq-3', _type: 'faqItem' } },
            { patch: { id: 'faq-1', ifRevisionID: 'stale', set: { x: 1 } } },
          ],
          'e',
        ),
      ).rejects.toThrow(/unexpected revision/);
      expect(store.get('faq-3')).toBeNull();
      const again = new LakeStore(database.db);
      await again.open(BASE);
      expect(again.get('faq-3')).toBeNull();
      expect(await again.transactions(['faq-3'])).toEqual([]);
    });

    it('refuses to delete or unpublish a document another refers to, and writes nothing then', async () => {
      await store.mutate(
        [{ create: { _id: 'faq-3', _type: 'faqItem', see: { _type: 'reference', _ref: 'faq-2' } } }],
        'e',
      );
      for (const actions of [
        [{ actionType: 'sanity.action.document.delete', publishedId: 'faq-2', includeDrafts: [] }],
        [{ actionType: 'sanity.action.document.unpublish', draftId: 'drafts.faq-2', publishedId: 'faq-2' }],
      ])
        await expect(store.act(actions, 'e')).rejects.toMatchObject({
          status: 409,
          type: 'documentHasExistingReferencesError',
        });
      await expect(store.mutate([{ delete: { id: 'faq-2' } }], 'e')).rejects.toThrow(/references to it from "faq-3"/);
      expect(store.get('faq-2')?.question).toMatchObject({ en: 'Q2' });
      expect(store.get('drafts.faq-2')).toBeNull();
      expect(await store.transactions(['faq-2'])).toEqual([]);
      // Once the referring document is gone, so can the other be.
      await store.act([{ actionType: 'sanity.action.document.delete', publishedId: 'faq-3', includeDrafts: [] }], 'e');
      await store.act([{ actionType: 'sanity.action.document.delete', publishedId: 'faq-2', includeDrafts: [] }], 'e');
      expect(store.get('faq-2')).toBeNull();
    });

    it('keeps uploaded images in the database', async () => {
      const asset = { _id: 'image-abc-1x1-png', _type: 'sanity.imageAsset', _rev: '', _createdAt: '', _updatedAt: '' };
      await store.saveAsset('abc-1x1.png', asset, 'image/png', Buffer.from([1, 2, 3]), 'e');
      expect((await store.asset('abc-1x1.png'))?.bytes).toEqual(Buffer.from([1, 2, 3]));
      expect(store.get('image-abc-1x1-png')?._type).toBe('sanity.imageAsset');
    });
  });
}

/** A session of an editor's, as the emailed-code sign-in starts one (editors.server.test.ts tests that flow). */
async function editorToken(database: Database, hours = 1): Promise<string> {
  const token = `lk1.${createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 43)}`;
  await database.db.execute(
    sql`insert into lake_editor_sessions (id_hash, email, expires_at) values (${createHash('sha256').update(token).digest('hex')}, 'editor@example.com', ${new Date(Date.now() + hours * 3_600_000).toISOString()}::timestamptz)`,
  );
  return token;
}

describe('the lake API: editors only', () => {
  let database: Database;
  let server: Server;
  let base: string;
  let token: string;
  let store: LakeStore;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    installDatabase(database);
    await addEditor('editor@example.com', 'Eda');
    token = await editorToken(database);
    store = new LakeStore(database.db);
    await store.open(BASE);
    const handle = createLakeHandler({
      store,
      projectId: 'placeholder',
      dataset: 'production',
      authenticate: editorFromRequest,
      allowedOrigins: (origin) => origin === 'http://site.test',
      pathPrefix: '/studio/api',
      limits: { publicLiveStreams: 3 },
    });
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    installDatabase(undefined);
    await database.close();
  });

  const call = (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  const QUERY = '/v2025-02-19/data/query/production?query=*%5B_type%3D%3D%22faqItem%22%5D._id&perspective=raw';

  it('answers an editor, with drafts when asked, and refuses everyone else', async () => {
    const ok = await call(QUERY, { Authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect((await ok.json()).result).toEqual(['faq-1', 'faq-2']);

    // No credentials; a client's portal cookie; a forged, an old-style signed and an expired token.
    const forged = `lk1.${'A'.repeat(43)}`;
    const body = Buffer.from(JSON.stringify({ e: 'attacker@example.com', n: 'X', x: Date.now() + 1e6 })).toString(
      'base64url',
    );
    const swapped = `ed1.${body}.${'A'.repeat(43)}`;
    const expired = await editorToken(database, -1);
    for (const headers of [
      {} as Record<string, string>,
      { Cookie: '__client=eyJzIjoiYWJjIn0%3D.sig' },
      { Authorization: `Bearer ${forged}` },
      { Authorization: `Bearer ${swapped}` },
      { Authorization: `Bearer ${expired}` },
      { Authorization: 'Bearer sk_anything' },
    ]) {
      const res = await call(QUERY, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      const mutate = await call('/v1/data/mutate/production', headers, {
        method: 'POST',
        body: JSON.stringify({ mutations: [{ delete: { id: 'faq-1' } }] }),
      });
      expect(mutate.status).toBe(401);
    }
    // Signed out, /users/me says "nobody" (the Studio then shows its sign-in screen).
    expect(await (await call('/v1/users/me')).json()).toEqual({});
  });

  it('answers the delete dialog’s question about other datasets’ references: none, one dataset here', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const res = await call(
      '/v2025-02-19/data/references/production/documents/faq-1/to?excludeInternalReferences=true&excludePaths=true',
      auth,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ totalCount: 0, references: [] });
    expect((await call('/v2025-02-19/data/references/production/documents/faq-1/to', auth)).status).toBe(404);
  });

  it('honours dryRun: answers as a commit would, writes nothing, sends no event, keeps no history', async () => {
    const committed: LakeTransaction[] = [];
    const stop = store.onCommit((tx) => committed.push(tx));
    const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const draft = {
      _id: 'drafts.faqItem-audit-test',
      _type: 'faqItem',
      question: { _type: 'localeString', en: 'Audit', ar: '' },
    };
    try {
      // The probe's request: ?dryRun=true on the URL.
      const res = await call('/v2025-02-19/data/mutate/production?dryRun=true&returnDocuments=true', auth, {
        method: 'POST',
        body: JSON.stringify({ mutations: [{ create: draft }] }),
      });
      expect(res.status).toBe(200);
      const answer = await res.json();
      expect(answer.transactionId).toEqual(expect.any(String));
      expect(answer.results).toEqual([
        { id: 'drafts.faqItem-audit-test', operation: 'create', document: expect.objectContaining(draft) },
      ]);
      expect(answer.documents).toEqual([expect.objectContaining(draft)]);
      // `dryRun` in the body (@sanity/client's form), on mutate and on actions.
      const inBody = await call('/v1/data/mutate/production', auth, {
        method: 'POST',
        body: JSON.stringify({
          mutations: [{ patch: { id: 'faq-1', set: { 'question.en': 'Changed' } } }],
          dryRun: true,
        }),
      });
      expect((await inBody.json()).results).toEqual([{ id: 'faq-1', operation: 'update' }]);
      const action = await call('/v1/data/actions/production', auth, {
        method: 'POST',
        body: JSON.stringify({
          actions: [
            {
              actionType: 'sanity.action.document.edit',
              draftId: 'drafts.faq-1',
              publishedId: 'faq-1',
              patch: { set: { 'question.en': 'Changed' } },
            },
          ],
          dryRun: true,
        }),
      });
      expect(action.status).toBe(200);
      // A dry run still checks: creating an existing document fails as the commit would.
      const conflict = await call('/v1/data/mutate/production?dryRun=true', auth, {
        method: 'POST',
        body: JSON.stringify({ mutations: [{ create: { _id: 'faq-1', _type: 'faqItem' } }] }),
      });
      expect(conflict.status).toBe(409);

      // Nothing was written, nothing was told, nothing is in the history.
      expect(committed).toEqual([]);
      const docs = await call('/v1/data/doc/production/drafts.faqItem-audit-test,drafts.faq-1,faq-1', auth);
      const { documents, omitted } = await docs.json();
      expect(documents).toEqual([expect.objectContaining({ _id: 'faq-1', _rev: 'bundled' })]);
      expect(documents[0].question.en).toBe('Q1');
      expect(omitted.map((o: { id: string }) => o.id)).toEqual(['drafts.faqItem-audit-test', 'drafts.faq-1']);
      expect(await store.transactions(['drafts.faqItem-audit-test', 'faq-1', 'drafts.faq-1'])).toEqual([]);
      const rows = await database.db.execute(sql`select count(*)::int as n from lake_documents`);
      expect(Number((rows as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBe(0);
    } finally {
      stop();
    }
  });

  it('takes an image upload from an editor and serves it at the image URL shape', async () => {
    const png = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    const upload = await call(
      '/v2025-02-19/assets/images/production?filename=red.png',
      { Authorization: `Bearer ${token}`, 'Content-Type': 'image/png' },
      { method: 'POST', body: new Uint8Array(png) },
    );
    expect(upload.status).toBe(200);
    const { document } = await upload.json();
    expect(document).toMatchObject({ _type: 'sanity.imageAsset', extension: 'png', originalFilename: 'red.png' });
    expect(document._id).toMatch(/^image-[0-9a-f]{40}-4x3-png$/);
    const file = String(document.path).split('/').pop();
    const image = await call(`/images/placeholder/production/${file}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(png);
    // Not an image: refused, nothing stored.
    const junk = await call(
      '/v2025-02-19/assets/images/production',
      { Authorization: `Bearer ${token}` },
      { method: 'POST', body: 'not an image' },
    );
    expect(junk.status).toBe(400);
    // And nobody else uploads.
    expect(
      (await call('/v2025-02-19/assets/images/production', {}, { method: 'POST', body: new Uint8Array(png) })).status,
    ).toBe(401);
  });

  it('sends CORS headers to the site only', async () => {
    const fromSite = await call(QUERY, { Authorization: `Bearer ${token}`, Origin: 'http://site.test' });
    expect(fromSite.headers.get('access-control-allow-origin')).toBe('http://site.test');
    const elsewhere = await call(QUERY, { Authorization: `Bearer ${token}`, Origin: 'https://evil.test' });
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('streams listener events with previousRev/resultRev and whole-document mendoza effects, filtered before and after', async () => {
    const controller = new AbortController();
    const res = await call(
      `/v1/data/listen/production?query=${encodeURIComponent('*[_id in path("drafts.**")]')}&effectFormat=mendoza&includeResult=true`,
      { Authorization: `Bearer ${token}` },
      { signal: controller.signal },
    );
    const reader = res.body!.getReader();
    let text = '';
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    };
    await readUntil(/event: welcome/);
    const act = (actions: unknown[]) =>
      call(
        '/v1/data/actions/production',
        { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        {
          method: 'POST',
          body: JSON.stringify({ actions }),
        },
      );
    await act([
      {
        actionType: 'sanity.action.document.edit',
        draftId: 'drafts.faq-2',
        publishedId: 'faq-2',
        patch: { set: { x: 1 } },
      },
    ]);
    await act([{ actionType: 'sanity.action.document.publish', draftId: 'drafts.faq-2', publishedId: 'faq-2' }]);
    await readUntil(/"transition":"disappear"/);
    controller.abort();
    const events = [...text.matchAll(/event: mutation\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]));
    // The published document matches neither before nor after: only the draft's two events.
    expect(events.map((e) => [e.documentId, e.transition])).toEqual([
      ['drafts.faq-2', 'appear'],
      ['drafts.faq-2', 'disappear'],
    ]);
    expect(events[1].previousRev).toBe(events[0].resultRev);
    // A deletion names its transaction as resultRev too: the Studio orders a document's events by
    // previousRev → resultRev and holds back one it cannot chain.
    expect(events[1].resultRev).toBe(events[1].transactionId);
    expect(events[0].effects.apply).toEqual([0, events[0].result]);
    expect(events[1].effects.apply).toEqual([0, null]);
  });

  /** Reads a server-sent event stream until `pattern` appears (or `ms` pass); then stops reading. */
  async function streamUntil(res: Response, pattern: RegExp, ms = 3000): Promise<string> {
    const reader = res.body!.getReader();
    let text = '';
    const deadline = Date.now() + ms;
    while (!pattern.test(text) && Date.now() < deadline) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()))),
      ]);
      if (!chunk || chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    await reader.cancel().catch(() => {});
    return text;
  }

  it("answers the Studio's live events: public without drafts (no content, a restart after a publish), editors only with drafts", async () => {
    const events = '/v2025-02-19/data/live/events/production';
    // No token (an EventSource sends none): welcome, and only `restart` after a published change.
    const open = await call(events);
    expect(open.status).toBe(200);
    expect(open.headers.get('content-type')).toBe('text/event-stream');
    const draftOnly = store.mutate([{ createOrReplace: { _id: 'drafts.faq-9', _type: 'faqItem' } }], 'e');
    const text = streamUntil(open, /event: restart/, 1500);
    await draftOnly;
    expect(await text).toMatch(/^event: welcome\ndata: \{\}\n\n$/);
    const again = await call(events);
    const restarted = streamUntil(again, /event: restart/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await store.mutate([{ createOrReplace: { _id: 'faq-9', _type: 'faqItem', question: { en: 'Q9' } } }], 'e');
    const body = await restarted;
    expect(body).toMatch(/event: restart\ndata: \{\}/);
    expect(body).not.toContain('Q9');
    // Drafts: an editor's token only.
    expect((await call(`${events}?includeDrafts=true`)).status).toBe(401);
    const editor = await call(`${events}?includeDrafts=true`, { Authorization: `Bearer ${token}` });
    expect(editor.status).toBe(200);
    await editor.body?.cancel();
  });

  it('bounds the public live event streams: past the limit a stranger gets 429, an editor still gets drafts', async () => {
    const events = '/v2025-02-19/data/live/events/production';
    // Streams of earlier tests may still be closing: open until refused, at most 3 at once.
    const open: Response[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 10 && !refused; i++) {
      const r = await call(events);
      if (r.status === 429) refused = r;
      else open.push(r);
    }
    expect(refused?.status).toBe(429);
    expect(open.length).toBeGreaterThan(0);
    expect(open.length).toBeLessThanOrEqual(3);
    const editor = await call(`${events}?includeDrafts=true`, { Authorization: `Bearer ${token}` });
    expect(editor.status).toBe(200);
    await editor.body?.cancel();
    // A stream that closes gives its place back.
    await open[0].body?.cancel();
    await expect
      .poll(async () => {
        const again = await call(events);
        await again.body?.cancel();
        return again.status;
      })
      .toBe(200);
    for (const r of open.slice(1)) await r.body?.cancel();
  });

  it('deletes by query (the Presentation tool clears expired preview secrets so) and checks each id found', async () => {
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const mutate = (mutations: unknown[]) =>
      call('/v2025-02-19/data/mutate/production', headers, { method: 'POST', body: JSON.stringify({ mutations }) });
    expect(
      (
        await mutate([
          { createOrReplace: { _id: 'drafts.secret-a', _type: 'sanity.previewUrlSecret', userId: 'u1' } },
          { createOrReplace: { _id: 'drafts.secret-b', _type: 'sanity.previewUrlSecret', userId: 'u2' } },
        ])
      ).status,
    ).toBe(200);
    const byUser = await mutate([
      { delete: { query: '*[_type == "sanity.previewUrlSecret" && userId == $userId]', params: { userId: 'u1' } } },
    ]);
    expect(byUser.status).toBe(200);
    expect((await byUser.json()).results).toEqual([{ id: 'drafts.secret-a', operation: 'delete' }]);
    expect(store.get('drafts.secret-a')).toBeNull();
    expect(store.get('drafts.secret-b')).not.toBeNull();
    // Nothing found: nothing done, still 200 (as Sanity answers).
    expect((await mutate([{ delete: { query: '*[_type == "nothing"]' } }])).status).toBe(200);
    // A query that is not GROQ: 400, nothing deleted.
    expect((await mutate([{ delete: { query: '*[' } }])).status).toBe(400);
    expect(store.get('drafts.secret-b')).not.toBeNull();
  });

  it("answers under the site's path (/studio/api) as on its own port", async () => {
    const res = await call(`/studio/api${QUERY}`, { Authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect((await res.json()).result).toContain('faq-1');
    expect((await call(`/studio/api${QUERY}`)).status).toBe(401);
  });

  it("checks the Presentation tool's preview secret in the store (lakeSecretCheck): valid for an hour, then not", async () => {
    await store.mutate(
      [
        {
          createOrReplace: {
            _id: 'drafts.0f0e-secret',
            _type: 'sanity.previewUrlSecret',
            secret: 'the-studio-secret-0123456789',
            studioUrl: 'https://site.test/studio',
          },
        },
      ],
      'e',
    );
    const check = lakeSecretCheck(store);
    const url = (secret: string) =>
      `https://site.test/api/preview-mode/enable?sanity-preview-secret=${secret}&sanity-preview-pathname=%2Far%2Ffaq`;
    expect(await check(url('the-studio-secret-0123456789'))).toMatchObject({ isValid: true, redirectTo: '/ar/faq' });
    expect(await check(url('not-the-secret'))).toMatchObject({ isValid: false });
    // An hour later (the package's TTL) the same secret no longer opens a preview.
    const later = Date.now() + 61 * 60 * 1000;
    const realNow = Date.now;
    Date.now = () => later;
    const RealDate = Date;
    globalThis.Date = class extends RealDate {
      constructor(...args: ConstructorParameters<typeof Date>) {
        super(...((args.length ? args : [later]) as [number]));
      }
    } as DateConstructor;
    try {
      expect(await check(url('the-studio-secret-0123456789'))).toMatchObject({ isValid: false });
    } finally {
      globalThis.Date = RealDate;
      Date.now = realNow;
    }
  });

  it('sweeps the preview secrets past their hour (a tab closed on the Presentation tool leaves one), and only those', async () => {
    const secret = (id: string) => ({
      createOrReplace: {
        _id: id,
        _type: 'sanity.previewUrlSecret',
        secret: `${id}-0123456789abcdef`,
        studioUrl: '/studio',
      },
    });
    await store.mutate([secret('drafts.sweep-old'), secret('drafts.sweep-new')], 'e');
    const updated = Date.parse(String(store.get('drafts.sweep-old')!._updatedAt));
    // Within the hour: nothing is swept.
    expect(await sweepExpiredSecrets(store, updated + 30 * 60 * 1000)).not.toContain('drafts.sweep-old');
    expect(store.get('drafts.sweep-old')).not.toBeNull();
    // Past it: the secrets go, a content draft stays.
    await store.mutate([{ createOrReplace: { _id: 'drafts.faq-sweep', _type: 'faqItem' } }], 'e');
    const swept = await sweepExpiredSecrets(store, updated + 61 * 60 * 1000);
    expect(swept).toEqual(expect.arrayContaining(['drafts.sweep-old', 'drafts.sweep-new']));
    expect(store.get('drafts.sweep-old')).toBeNull();
    expect(store.get('drafts.faq-sweep')).not.toBeNull();
  });
});
