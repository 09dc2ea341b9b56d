import { describe, expect, it } from 'vitest';
import { dir, localeFromPath, localizePath, placeName, requestLocale, stripLocale, twinPath } from './i18n';

describe('locale URL rules', () => {
  it('reads the language from the path prefix only', () => {
    expect(localeFromPath('/')).toBe('en');
    expect(localeFromPath('/about')).toBe('en');
    expect(localeFromPath('/ar')).toBe('ar');
    expect(localeFromPath('/ar/blog/x')).toBe('ar');
    expect(localeFromPath('/arabic')).toBe('en');
    expect(localeFromPath('/area/ar')).toBe('en');
  });

  it("takes a request's language from its URL path, not its query or headers", () => {
    expect(requestLocale(new Request('http://x.test/ar/faq?lng=en'))).toBe('ar');
    expect(requestLocale(new Request('http://x.test/faq?x=/ar', { headers: { 'accept-language': 'ar' } }))).toBe('en');
  });

  it('strips the Arabic prefix', () => {
    expect(stripLocale('/ar')).toBe('/');
    expect(stripLocale('/ar/faq')).toBe('/faq');
    expect(stripLocale('/faq')).toBe('/faq');
    expect(stripLocale('/arx')).toBe('/arx');
  });

  it('localizes site paths and leaves other links alone', () => {
    expect(localizePath('/', 'ar')).toBe('/ar');
    expect(localizePath('/services#recruitment', 'ar')).toBe('/ar/services#recruitment');
    expect(localizePath('/blog?page=2', 'ar')).toBe('/ar/blog?page=2');
    expect(localizePath('/ar/about', 'en')).toBe('/about');
    expect(localizePath('/ar/about', 'ar')).toBe('/ar/about');
    expect(localizePath('https://example.com/x', 'ar')).toBe('https://example.com/x');
    expect(localizePath('//evil.example/x', 'ar')).toBe('//evil.example/x');
    expect(localizePath('mailto:a@b.c', 'ar')).toBe('mailto:a@b.c');
    expect(localizePath('#top', 'ar')).toBe('#top');
  });

  it('finds the twin page in the other language, keeping query and hash', () => {
    expect(twinPath('/services', '?x=1', '#operations', 'ar')).toBe('/ar/services?x=1#operations');
    expect(twinPath('/ar/services', '', '#operations', 'en')).toBe('/services#operations');
    expect(twinPath('/ar', '', '', 'en')).toBe('/');
    expect(twinPath('/', '', '', 'ar')).toBe('/ar');
  });

  it('gives Arabic a right-to-left direction', () => {
    expect(dir('ar')).toBe('rtl');
    expect(dir('en')).toBe('ltr');
  });
});

describe('placeName', () => {
  it('joins city and country with the language’s comma, and says a city-state once', () => {
    expect(placeName('Dubai', 'UAE', 'en')).toBe('Dubai, UAE');
    expect(placeName('دبي', 'الإمارات العربية المتحدة', 'ar')).toBe('دبي، الإمارات العربية المتحدة');
    expect(placeName('سنغافورة', 'سنغافورة', 'ar')).toBe('سنغافورة');
    expect(placeName('Singapore', null, 'en')).toBe('Singapore');
  });
});
