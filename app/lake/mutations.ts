import { Mutation as SanityMutation } from '@sanity/mutator';
import type { SanityDocument } from '~/sanity/types';

/**
 * Sanity's mutations and document actions, applied to documents in memory (the lake's store
 * commits the outcome in one database transaction, app/lake/store.server.ts).
 *
 * Patches (set, setIfMissing, unset, insert, inc, dec, diffMatchPatch, with Sanity's paths) are
 * applied by `@sanity/mutator`, the same code the Studio uses to apply them to its own copy, so the
 * lake and the Studio agree on every edit. Conditions (`ifRevisionID`, `create` of an existing
 * document, a patch of a missing one) are checked here and fail the whole transaction.
 */
export type LakeDocument = SanityDocument & { _rev: string; _createdAt: string; _updatedAt: string };

/** A mutation as the HTTP API takes it (`{create: doc}`, `{patch: {id, set, …}}`, …). */
export type SanityMutationInput = Record<string, unknown>;

export class LakeError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly type = 'mutationError',
  ) {
    super(message);
  }
}

const DRAFTS = 'drafts.';
export const draftId = (id: string) => (id.startsWith(DRAFTS) ? id : `${DRAFTS}${id}`);
export const publishedId = (id: string) => (id.startsWith(DRAFTS) ? id.slice(DRAFTS.length) : id);

type Read = (id: string) => LakeDocument | null;

const clone = <T>(value: T): T => structuredClone(value);

function asDoc(value: unknown, what: string): SanityDocument {
  if (!value || typeof value !== 'object') throw new LakeError(`${what}: a document is required`, 400);
  const doc = value as SanityDocument;
  if (typeof doc._id !== 'string' || !doc._id) throw new LakeError(`${what}: the document has no _id`, 400);
  if (typeof doc._type !== 'string' || !doc._type) throw new LakeError(`${what}: ${doc._id} has no _type`, 400);
  if (doc._id.length > 200 || !/^[A-Za-z0-9._-]+$/.test(doc._id))
    throw new LakeError(`${what}: ${doc._id} is not a valid document id`, 400);
  checkContentId(doc._id);
  return doc;
}

/**
 * Content only: a public id or its draft. An id with any other period is the site's private kind
 * (`submission.…`, app/sanity/types.ts isPrivateId) or a release version: never written here.
 */
export function checkContentId(id: string): void {
  const bare = id.startsWith(DRAFTS) ? id.slice(DRAFTS.length) : id;
  if (bare.includes('.'))
    throw new LakeError(`${id}: the local Content Lake writes content documents and their drafts only`, 403);
}

/**
 * Applies mutations in order over `read` (the current state) and returns each document they
 * touched with its new state (null = deleted). Every written document gets `_rev` = `rev` and
 * `_updatedAt` = `now`. Throws LakeError (nothing applied) when a condition fails.
 */
export function applyMutations(
  read: Read,
  mutations: readonly SanityMutationInput[],
  rev: string,
  now: string,
): Map<string, LakeDocument | null> {
  const changed = new Map<string, LakeDocument | null>();
  const current = (id: string) => (changed.has(id) ? changed.get(id)! : read(id));
  const write = (doc: SanityDocument, previous: LakeDocument | null) => {
    const next = clone(doc) as LakeDocument;
    next._createdAt = previous?._createdAt ?? (typeof doc._createdAt === 'string' ? doc._createdAt : now);
    next._updatedAt = now;
    next._rev = rev;
    changed.set(next._id, next);
  };
  for (const m of mutations) {
    const [kind, body] = Object.entries(m)[0] ?? [];
    if (kind === 'create') {
      const doc = asDoc(body, 'create');
      if (current(doc._id)) throw new LakeError(`Document by ID "${doc._id}" already exists`, 409);
      write(doc, null);
    } else if (kind === 'createIfNotExists') {
      const doc = asDoc(body, 'createIfNotExists');
      if (!current(doc._id)) write(doc, null);
    } else if (kind === 'createOrReplace') {
      const doc = asDoc(body, 'createOrReplace');
      write(doc, current(doc._id));
    } else if (kind === 'delete') {
      const id = (body as { id?: unknown })?.id;
      if (typeof id !== 'string') throw new LakeError('delete: an id is required', 400);
      checkContentId(id);
      if (current(id)) changed.set(id, null);
    } else if (kind === 'patch') {
      const patch = body as { id?: unknown; query?: unknown; ifRevisionID?: unknown };
      if (typeof patch?.id !== 'string') throw new LakeError('patch: only patches by id are supported', 400);
      checkContentId(patch.id);
      const doc = current(patch.id);
      if (!doc) throw new LakeError(`Document by ID "${patch.id}" does not exist`, 409, 'documentNotFoundError');
      if (typeof patch.ifRevisionID === 'string' && patch.ifRevisionID !== doc._rev)
        throw new LakeError(
          `Document "${patch.id}" has unexpected revision ID ("${doc._rev}"), expected "${patch.ifRevisionID}"`,
          409,
        );
      const { ifRevisionID: _ignored, ...rest } = patch;
      let next: SanityDocument | null;
      try {
        next = new SanityMutation({ mutations: [{ patch: clone(rest) } as never] }).apply(clone(doc)) as SanityDocument;
      } catch (error) {
        throw new LakeError(`patch of ${patch.id}: ${error instanceof Error ? error.message : String(error)}`, 400);
      }
      if (!next) throw new LakeError(`patch of ${patch.id} left no document`, 400);
      next._id = doc._id;
      next._type = doc._type;
      write(next, doc);
    } else {
      throw new LakeError(`Unsupported mutation: ${String(kind)}`, 400);
    }
  }
  return changed;
}

/**
 * Sanity's document actions (`/data/actions/{dataset}`, what the Studio sends for edits and
 * publishes) as the mutations they amount to, over the current state. Release (version) actions
 * are refused: the lake has no releases (ADR 0025).
 */
export function actionsToMutations(read: Read, actions: readonly Record<string, unknown>[]): SanityMutationInput[] {
  const out: SanityMutationInput[] = [];
  // Later actions see earlier ones (a create then an edit of the same draft in one request).
  const pending = new Map<string, LakeDocument | null>();
  const get = (id: string) => (pending.has(id) ? pending.get(id)! : read(id));
  const put = (doc: SanityDocument | null, id: string) => pending.set(id, doc as LakeDocument | null);
  for (const action of actions) {
    const type = String(action.actionType ?? '');
    const pub = typeof action.publishedId === 'string' ? action.publishedId : undefined;
    const draft = typeof action.draftId === 'string' ? action.draftId : pub ? draftId(pub) : undefined;
    switch (type) {
      case 'sanity.action.document.create': {
        const attributes = asDoc(
          { _id: draft, ...(action.attributes as object), ...(draft ? { _id: draft } : {}) },
          'create',
        );
        if (!pub) throw new LakeError('create: publishedId is required', 400);
        if (get(attributes._id)) {
          if (action.ifExists === 'ignore') break;
          throw new LakeError(`Document by ID "${attributes._id}" already exists`, 409);
        }
        out.push({ create: attributes });
        put(attributes, attributes._id);
        break;
      }
      case 'sanity.action.document.edit': {
        if (!draft || !pub) throw new LakeError('edit: draftId and publishedId are required', 400);
        const existing = get(draft);
        if (!existing) {
          const published = get(pub);
          if (!published) throw new LakeError(`Cannot edit "${pub}": neither it nor its draft exists`, 409);
          const { _rev: _r, _updatedAt: _u, ...copy } = published;
          out.push({ createIfNotExists: { ...copy, _id: draft } });
          put({ ...copy, _id: draft }, draft);
        }
        out.push({ patch: { ...(action.patch as object), id: draft } });
        break;
      }
      case 'sanity.action.document.replaceDraft': {
        if (!draft) throw new LakeError('replaceDraft: draftId is required', 400);
        const attributes = asDoc({ ...(action.attributes as object), _id: draft }, 'replaceDraft');
        out.push({ createOrReplace: attributes });
        put(attributes, draft);
        break;
      }
      case 'sanity.action.document.publish': {
        if (!draft || !pub) throw new LakeError('publish: draftId and publishedId are required', 400);
        const source = get(draft);
        if (!source) throw new LakeError(`Cannot publish "${pub}": it has no draft`, 409);
        if (typeof action.ifDraftRevisionId === 'string' && action.ifDraftRevisionId !== source._rev)
          throw new LakeError(`The draft of "${pub}" changed before it was published`, 409);
        const published = get(pub);
        if (typeof action.ifPublishedRevisionId === 'string' && action.ifPublishedRevisionId !== published?._rev)
          throw new LakeError(`"${pub}" changed before the draft was published`, 409);
        const { _rev: _r, _updatedAt: _u, ...copy } = source;
        out.push({ createOrReplace: { ...copy, _id: pub } }, { delete: { id: draft } });
        put({ ...copy, _id: pub }, pub);
        put(null, draft);
        break;
      }
      case 'sanity.action.document.unpublish': {
        if (!draft || !pub) throw new LakeError('unpublish: draftId and publishedId are required', 400);
        const published = get(pub);
        if (!published) throw new LakeError(`"${pub}" is not published`, 409);
        if (!get(draft)) {
          const { _rev: _r, _updatedAt: _u, ...copy } = published;
          out.push({ createIfNotExists: { ...copy, _id: draft } });
          put({ ...copy, _id: draft }, draft);
        }
        out.push({ delete: { id: pub } });
        put(null, pub);
        break;
      }
      case 'sanity.action.document.discard': {
        if (!draft) throw new LakeError('discard: draftId is required', 400);
        if (!get(draft)) throw new LakeError(`"${draft}" does not exist`, 409);
        out.push({ delete: { id: draft } });
        put(null, draft);
        break;
      }
      case 'sanity.action.document.version.discard': {
        // What the Studio sends to delete a document that was never published (every version of
        // it, here its draft). Release versions (`versions.…`) are refused by checkContentId.
        const versionId = typeof action.versionId === 'string' ? action.versionId : undefined;
        if (!versionId) throw new LakeError('discardVersion: versionId is required', 400);
        checkContentId(versionId);
        if (!versionId.startsWith(DRAFTS)) throw new LakeError(`${versionId} is not a version of a document`, 400);
        if (!get(versionId)) throw new LakeError(`"${versionId}" does not exist`, 409);
        out.push({ delete: { id: versionId } });
        put(null, versionId);
        break;
      }
      case 'sanity.action.document.delete': {
        if (!pub) throw new LakeError('delete: publishedId is required', 400);
        const ids = [pub, ...(Array.isArray(action.includeDrafts) ? action.includeDrafts.map(String) : [draftId(pub)])];
        for (const id of ids) {
          out.push({ delete: { id } });
          put(null, id);
        }
        break;
      }
      default:
        throw new LakeError(`The local Content Lake does not support the action "${type}" (ADR 0025)`, 400);
    }
  }
  return out;
}

/**
 * Referential integrity, as the Content Lake keeps it: a document that another document refers to
 * with a strong reference (`_ref` without `_weak: true`) cannot be deleted or unpublished. `changed`
 * is a transaction's outcome (null = deleted), `all` every document before it. Throws 409
 * `documentHasExistingReferencesError` naming the referring documents; nothing is written then.
 */
export function checkReferences(changed: ReadonlyMap<string, LakeDocument | null>, all: readonly SanityDocument[]) {
  const gone = new Set<string>();
  for (const [id, doc] of changed) if (!doc && !id.startsWith(DRAFTS)) gone.add(id);
  if (!gone.size) return;
  const referrers = new Map<string, string[]>();
  const before = new Set(all.map((doc) => doc._id));
  const remaining = [
    ...all.map((doc) => (changed.has(doc._id) ? changed.get(doc._id) : doc)),
    ...[...changed.values()].filter((doc) => doc && !before.has(doc._id)),
  ];
  for (const doc of remaining) {
    if (!doc) continue;
    for (const ref of strongReferences(doc)) {
      // A document's own draft may point at it: deleting both is one act.
      if (!gone.has(ref) || publishedId(doc._id) === ref) continue;
      referrers.set(ref, [...(referrers.get(ref) ?? []), doc._id]);
    }
  }
  const [id, from] = [...referrers][0] ?? [];
  if (id)
    throw new LakeError(
      `Document "${id}" cannot be deleted as there are references to it from ${from!.map((r) => `"${r}"`).join(', ')}`,
      409,
      'documentHasExistingReferencesError',
    );
}

/** The ids a document refers to with strong references, anywhere in it. */
function strongReferences(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) strongReferences(item, found);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record._ref === 'string' && record._weak !== true) found.add(record._ref);
    for (const [key, child] of Object.entries(record)) if (key !== '_ref') strongReferences(child, found);
  }
  return found;
}
