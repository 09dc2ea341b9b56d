import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import en from '../../../public/locales/en/forms.json';
import ar from '../../../public/locales/ar/forms.json';
import { NEWSLETTER_WORDING_KEYS, NEWSLETTER_WORDING_VERSION } from './wording';

/**
 * Each sign-up stores NEWSLETTER_WORDING_VERSION as the wording the person agreed to. This pins the
 * text of that version: a change to the wording fails here until the version is changed with it
 * (and the hash below updated), so a stored version always names one text.
 */
const PINNED: Record<string, string> = {
  '2026-11-29': '564e42437d9519ea',
};

describe('the newsletter wording version', () => {
  it('names the text of the sign-up wording in both languages', () => {
    const text = JSON.stringify(
      (['en', 'ar'] as const).map((locale) =>
        NEWSLETTER_WORDING_KEYS.map((key) => (locale === 'en' ? en : ar).newsletter[key]),
      ),
    );
    for (const locale of [en, ar])
      for (const key of NEWSLETTER_WORDING_KEYS) expect(locale.newsletter[key]).toBeTruthy();
    expect(createHash('sha256').update(text).digest('hex').slice(0, 16)).toBe(PINNED[NEWSLETTER_WORDING_VERSION]);
  });
});
