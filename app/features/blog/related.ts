/**
 * Related articles: other posts in the same category or sharing tags, best match first.
 * A shared category counts as much as two shared tags; ties go to the newer post.
 */
export type RelatedKeys = { _id: string; categoryId: string | null; tagIds: readonly string[] | null };
export type RelatedCandidate = RelatedKeys & { publishedAt: string | null };

export const RELATED_LIMIT = 3;

export function relatedScore(post: RelatedKeys, other: RelatedKeys): number {
  if (other._id === post._id) return 0;
  const tags = new Set(post.tagIds ?? []);
  const shared = new Set((other.tagIds ?? []).filter((id) => tags.has(id))).size;
  const sameCategory = post.categoryId !== null && post.categoryId === other.categoryId;
  return (sameCategory ? 2 : 0) + shared;
}

export function selectRelated<T extends RelatedCandidate>(post: RelatedKeys, candidates: readonly T[], limit = RELATED_LIMIT): T[] {
  return candidates
    .map((candidate) => ({ candidate, score: relatedScore(post, candidate) }))
    .filter((c) => c.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        (b.candidate.publishedAt ?? '').localeCompare(a.candidate.publishedAt ?? '') ||
        a.candidate._id.localeCompare(b.candidate._id),
    )
    .slice(0, limit)
    .map((c) => c.candidate);
}
