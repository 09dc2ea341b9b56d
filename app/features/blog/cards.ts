import type { PostCardRaw } from '~/sanity/queries/insights';
import { readTimeMinutes } from './read-time';

/** A post as the listings show it: the body is reduced to its reading time before it leaves the server. */
export type PostCard = Omit<PostCardRaw, 'readBody'> & { readMinutes: number };

export function toPostCard({ readBody, ...post }: PostCardRaw): PostCard {
  return { ...post, readMinutes: readTimeMinutes(readBody) };
}
