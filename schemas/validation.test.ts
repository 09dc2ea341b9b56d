import { describe, expect, it } from 'vitest';
import {
  isHttpUrl,
  isHyphenSlug,
  isInternationalPhone,
  isSitePath,
  isUnderscoreSlug,
  isValidHref,
  isWhatsappNumber,
  slugify,
} from './validation';

describe('link targets', () => {
  it.each(['/', '/about', '/services#market-entry', '/blog/tag/free_zone', '/ar/faq?x=1'])(
    'accepts site path %s',
    (href) => {
      expect(isSitePath(href)).toBe(true);
      expect(isValidHref(href)).toBe(true);
    },
  );

  it.each([
    'https://example.com',
    'http://example.com/a?b=c',
    'mailto:hello@example.com',
    'tel:+971 4 555 0142',
    'tel:+6580551420',
  ])('accepts %s', (href) => expect(isValidHref(href)).toBe(true));

  it.each([
    '',
    'about',
    '//evil.example',
    '/ spaced',
    'javascript:alert(1)',
    'ftp://example.com',
    'mailto:nobody',
    'tel:abc',
    'https://',
  ])('rejects %j', (href) => expect(isValidHref(href)).toBe(false));

  it('http URL check needs a scheme and host', () => {
    expect(isHttpUrl('https://calendly.com/x')).toBe(true);
    expect(isHttpUrl('calendly.com/x')).toBe(false);
    expect(isHttpUrl('data:text/html,hi')).toBe(false);
  });
});

describe('phone numbers', () => {
  it('international display numbers need a + and country code', () => {
    expect(isInternationalPhone('+971 4 555 0142')).toBe(true);
    expect(isInternationalPhone('+65 8055 1420')).toBe(true);
    expect(isInternationalPhone('04 555 0142')).toBe(false);
    expect(isInternationalPhone('+1 234 567 890 123 456 78')).toBe(false);
  });

  it('WhatsApp numbers are digits only, country code first', () => {
    expect(isWhatsappNumber('971505550142')).toBe(true);
    expect(isWhatsappNumber('6580551420')).toBe(true);
    expect(isWhatsappNumber('+971505550142')).toBe(false);
    expect(isWhatsappNumber('971 50 555 0142')).toBe(false);
    expect(isWhatsappNumber('0505550142')).toBe(false);
  });
});

describe('slugs', () => {
  it('formats', () => {
    expect(isHyphenSlug('uae-free-zone-guide')).toBe(true);
    expect(isHyphenSlug('UAE-guide')).toBe(false);
    expect(isHyphenSlug('a--b')).toBe(false);
    expect(isUnderscoreSlug('market_insights')).toBe(true);
    expect(isUnderscoreSlug('market-insights')).toBe(false);
  });

  it('slugify makes valid slugs from English titles', () => {
    expect(slugify('UAE Free Zones: The 2024 Guide')).toBe('uae-free-zones-the-2024-guide');
    expect(slugify('Taxes & Finance', '_')).toBe('taxes_and_finance');
    expect(slugify('  Café  Résumé ')).toBe('cafe-resume');
    expect(isHyphenSlug(slugify('Market Entry — Step by Step!'))).toBe(true);
  });
});
