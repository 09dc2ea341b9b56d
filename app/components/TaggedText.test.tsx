/**
 * TaggedText draws the site's tagged strings as react-i18next's <Trans> did (the footer's
 * copyright line, the tag page's title, in both languages), and keeps odd text as text.
 */
import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { Trans } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import arCommon from '../../public/locales/ar/common.json';
import enCommon from '../../public/locales/en/common.json';
import arInsights from '../../public/locales/ar/insights.json';
import enInsights from '../../public/locales/en/insights.json';
import { TaggedText } from './TaggedText';

const i18n = i18next.createInstance();
await i18n.init({
  resources: { en: { common: enCommon, insights: enInsights }, ar: { common: arCommon, insights: arInsights } },
  ns: ['common', 'insights'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
});
const html = (node: JSX.Element) => renderToStaticMarkup(node);

describe('TaggedText', () => {
  for (const lng of ['en', 'ar'] as const) {
    it(`renders the footer's copyright line like <Trans> (${lng})`, () => {
      const t = i18n.getFixedT(lng, 'common');
      const values = { year: 2026, brand: 'Bawaba Advisory' };
      const brand = <span lang="en" dir="ltr" />;
      const ours = html(<TaggedText text={t('footer.copyright', values)} tags={{ brand }} />);
      expect(ours).toBe(
        html(<Trans i18n={i18n} t={t} i18nKey="footer.copyright" values={values} components={{ brand }} />),
      );
      expect(ours).toContain('<span lang="en" dir="ltr">Bawaba Advisory</span>');
      expect(ours.startsWith('© 2026 ')).toBe(true);
    });

    it(`renders the tag page's title like <Trans> (${lng})`, () => {
      const t = i18n.getFixedT(lng, 'insights');
      const bdi = <bdi />;
      const ours = html(<TaggedText text={t('blog.tagTitle', { tag: 'Tax & VAT' })} tags={{ bdi }} />);
      expect(ours).toBe(
        html(<Trans i18n={i18n} t={t} i18nKey="blog.tagTitle" values={{ tag: 'Tax & VAT' }} components={{ bdi }} />),
      );
      expect(ours).toContain('<bdi>Tax &amp; VAT</bdi>');
    });
  }

  it('keeps the words of a tag it has no element for, and shows other markup as text', () => {
    expect(html(<TaggedText text="a <b>bold</b> move" tags={{}} />)).toBe('a bold move');
    expect(html(<TaggedText text="x <bdi>R&D <2025></bdi> y" tags={{ bdi: <bdi /> }} />)).toBe(
      'x <bdi>R&amp;D &lt;2025&gt;</bdi> y',
    );
    expect(html(<TaggedText text="<img src=x onerror=alert(1)>" tags={{}} />)).toBe(
      '&lt;img src=x onerror=alert(1)&gt;',
    );
    expect(html(<TaggedText text="no tags" tags={{ b: <b /> }} />)).toBe('no tags');
  });

  it('draws several tags in order, each once', () => {
    expect(html(<TaggedText text="<b>1</b>-<i>2</i>-<b>3</b>" tags={{ b: <b />, i: <i /> }} />)).toBe(
      '<b>1</b>-<i>2</i>-<b>3</b>',
    );
  });
});
