import { describe, expect, it } from 'vitest';
import { latinTextLang, portableTextLang } from './content-lang';

describe('latinTextLang: visitor-supplied text on a page in another language', () => {
  it('marks text written only in Latin letters as English on an Arabic page', () => {
    expect(latinTextLang('ar', 'Layla Haddad')).toEqual({ lang: 'en' });
    expect(latinTextLang('ar', '30 Minute Consultation')).toEqual({ lang: 'en' });
    expect(latinTextLang('ar', 'Zoë Ångström')).toEqual({ lang: 'en' });
  });

  it('leaves Arabic, mixed, letterless and empty text in the page language', () => {
    expect(latinTextLang('ar', 'ليلى حداد')).toBeUndefined();
    expect(latinTextLang('ar', 'استشارة Zoom')).toBeUndefined();
    expect(latinTextLang('ar', '2041 - 30')).toBeUndefined();
    expect(latinTextLang('ar', '')).toBeUndefined();
    expect(latinTextLang('ar', null)).toBeUndefined();
  });

  it('marks nothing on an English page', () => {
    expect(latinTextLang('en', 'Layla Haddad')).toBeUndefined();
  });
});

describe('portableTextLang', () => {
  it('marks a body whose blocks stand in for a missing translation', () => {
    expect(portableTextLang([{ _lang: 'en' }, {}])).toEqual({ lang: 'en', dir: 'ltr' });
    expect(portableTextLang([{}, {}])).toBeUndefined();
    expect(portableTextLang(null)).toBeUndefined();
  });
});
