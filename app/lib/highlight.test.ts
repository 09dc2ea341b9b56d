import { describe, expect, it } from 'vitest';
import { splitHighlight } from './highlight';

describe('headline highlight', () => {
  it('splits around the highlighted word in either language', () => {
    expect(splitHighlight('Your Gateway to Business Success in the UAE', 'UAE')).toEqual([
      'Your Gateway to Business Success in the ',
      'UAE',
      '',
    ]);
    expect(splitHighlight('بوابتك إلى نجاح أعمالك في الإمارات', 'الإمارات')).toEqual([
      'بوابتك إلى نجاح أعمالك في ',
      'الإمارات',
      '',
    ]);
    expect(splitHighlight('The UAE, and beyond', ' UAE ')).toEqual(['The ', 'UAE', ', and beyond']);
  });

  it('gives null when the word is missing or absent from the headline', () => {
    expect(splitHighlight('Headline', null)).toBeNull();
    expect(splitHighlight('Headline', '')).toBeNull();
    expect(splitHighlight('Headline', 'UAE')).toBeNull();
  });
});
