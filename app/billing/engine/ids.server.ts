import { randomBytes } from 'node:crypto';

/** Prefixes of the engine's object ids, as Stripe names them. */
export type IdPrefix = 'cus' | 'sub' | 'in' | 'cs' | 'evt' | 'cn';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 24 base62 characters: about 143 bits of randomness, unguessable. */
const SUFFIX_LENGTH = 24;

/** A random base62 string; bytes of 248 and above are skipped so every character is equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(SUFFIX_LENGTH)}`;
}

/** Whether a value has the shape of one of the engine's ids (so it can be put in a document id). */
export function isId(prefix: IdPrefix, value: unknown): value is string {
  return typeof value === 'string' && new RegExp(`^${prefix}_[A-Za-z0-9]{6,64}$`).test(value);
}
