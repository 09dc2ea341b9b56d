/** Rich text rendered to HTML on the server (ADR 0035): the elements and classes, links, language, images, escaping. */
import { describe, expect, it } from 'vitest';
import { IMAGE_LAYOUTS } from '~/components/image-layouts';
import { imageAttributes } from '~/components/SanityImage';
import type { PortableTextValue } from '~/sanity/groq';
import { imageConfig } from './image-config.server';
import { renderRichText } from './rich-text.server';

let key = 0;
const span = (text: string, marks: string[] = []) => ({ _type: 'span', _key: `s${++key}`, text, marks });
const block = (children: object[], extra: object = {}) => ({
  _type: 'block',
  _key: `b${++key}`,
  style: 'normal',
  markDefs: [],
  children,
  ...extra,
});
const linked = (text: string, href: string) =>
  block([span('See '), span(text, ['l1']), span('.')], { markDefs: [{ _key: 'l1', _type: 'link', href }] });
const body = (...blocks: object[]) => blocks as unknown as PortableTextValue;

describe('renderRichText', () => {
  it('renders the blocks with the site classes', () => {
    const { html, english } = renderRichText(
      body(
        block([span('Heading')], { style: 'h2' }),
        block([span('Plain and '), span('strong', ['strong']), span(' text.')]),
        block([span('One')], { listItem: 'bullet', level: 1 }),
        block([span('Two')], { listItem: 'bullet', level: 1 }),
      ),
      'en',
    );
    expect(html).toBe(
      '<h2 class="mt-10 mb-3 text-2xl font-bold text-navy-900">Heading</h2>' +
        '<p class="my-4 leading-8">Plain and <strong class="font-semibold text-navy-900">strong</strong> text.</p>' +
        '<ul class="my-4 list-disc space-y-2 ps-6 marker:text-gold-600"><li>One</li><li>Two</li></ul>',
    );
    expect(english).toBe(false);
  });

  it('localizes site links for the page language and marks them for route discovery', () => {
    const link = (locale: 'en' | 'ar') => renderRichText(body(linked('prices', '/pricing#plans')), locale).html;
    const cls = 'font-medium text-navy-700 underline decoration-gold-500 underline-offset-4 hover:text-navy-900';
    expect(link('en')).toContain(`<a class="${cls}" data-discover="true" href="/pricing#plans">prices</a>`);
    expect(link('ar')).toContain(`<a class="${cls}" data-discover="true" href="/ar/pricing#plans">prices</a>`);
  });

  it('opens outside links in a new tab, and leaves mailto: in place', () => {
    const outside = renderRichText(body(linked('the authority', 'https://tax.gov.ae')), 'ar').html;
    expect(outside).toMatch(
      /<a href="https:\/\/tax\.gov\.ae" class="[^"]+" target="_blank" rel="noopener noreferrer">/,
    );
    const mail = renderRichText(body(linked('write', 'mailto:hello@example.com')), 'ar').html;
    expect(mail).toMatch(/<a href="mailto:hello@example.com" class="[^"]+">write<\/a>/);
  });

  it('marks a body that stands in for a missing translation as English', () => {
    expect(renderRichText(body({ ...block([span('English text')]), _lang: 'en' }), 'ar').english).toBe(true);
    expect(renderRichText(body(block([span('نص عربي')])), 'ar').english).toBe(false);
  });

  it('draws an image with the attributes built on the server, its alt text and caption', () => {
    const image = {
      _type: 'image',
      _key: 'i1',
      asset: { _id: 'image-0123456789abcdef0123456789abcdef01234567-3200x2000-jpg', width: 3200, height: 2000 },
      alt: 'A chart',
      caption: 'Revenue by year',
    };
    const { html } = renderRichText(body(image), 'en');
    const attributes = imageAttributes(imageConfig(), image as never, IMAGE_LAYOUTS.portableText);
    expect(html).toContain('<figure class="my-8"><img ');
    expect(html).toContain(`src="${attributes.src.replaceAll('&', '&amp;')}"`);
    expect(html).toContain('width="768"');
    expect(html).toContain('alt="A chart"');
    expect(html).toContain('loading="lazy"');
    expect(html).toContain('<figcaption class="mt-2 text-sm text-navy-500">Revenue by year</figcaption></figure>');
  });

  it('escapes markup in the CMS text: it stays text', () => {
    const { html } = renderRichText(
      body(
        block([span('<script>alert(1)</script>'), span('<img src=x onerror="alert(2)">', ['em'])]),
        linked('"><script>alert(3)</script>', '/about"><img src=x onerror=alert(4)>'),
      ),
      'en',
    );
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<em>&lt;img src=x onerror=&quot;alert(2)&quot;&gt;</em>');
    // An attribute's value stays one attribute.
    const quoted = renderRichText(body(linked('about', '/about"onmouseover="alert(5)')), 'en').html;
    expect(quoted).toContain('href="/about&quot;onmouseover=&quot;alert(5)"');
  });

  it('drops a link to an address the Studio does not accept, keeping its text', () => {
    const { html } = renderRichText(body(linked('click', 'javascript:alert(1)')), 'en');
    expect(html).toBe('<p class="my-4 leading-8">See click.</p>');
  });
});
