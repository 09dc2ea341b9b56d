import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The local Content Lake answers the Studio version its browser test passed on
 * (tests/e2e/studio-lake.spec.ts). An upgrade of `sanity` fails here until someone has run that
 * test on the new version, fixed what it needs (ADR 0025, "An upgrade of sanity") and moved this pin.
 */
export const LAKE_TESTED_SANITY = '5.31.2';

const root = path.resolve(import.meta.dirname, '..', '..');
const json = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, never>;

describe('the Studio version the local Content Lake was tested with', () => {
  it('is the one installed and pinned (exactly) in studio/package.json, the Studio being a package of its own', () => {
    expect(json('studio/node_modules/sanity/package.json').version).toBe(LAKE_TESTED_SANITY);
    expect((json('studio/package.json').dependencies as Record<string, string>).sanity).toBe(LAKE_TESTED_SANITY);
    // The site (React 18) has no `sanity` of its own (ADR 0027).
    expect((json('package.json').dependencies as Record<string, string>).sanity).toBeUndefined();
    // The lake applies patches with the Studio's own @sanity/mutator, released with it.
    expect(json('node_modules/@sanity/mutator/package.json').version).toBe(LAKE_TESTED_SANITY);
    expect((json('package.json').dependencies as Record<string, string>)['@sanity/mutator']).toBe(LAKE_TESTED_SANITY);
  });
});
