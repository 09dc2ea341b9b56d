import { describe, expect, it } from 'vitest';
import { bodyWordCount, countWords, readTimeMinutes, spanTexts } from './read-time';

const block = (...texts: string[]) => ({
  _type: 'block',
  _key: Math.random().toString(36).slice(2),
  style: 'normal',
  children: texts.map((text) => ({ _type: 'span', text, marks: [] })),
});
const words = (n: number, word = 'word') => Array.from({ length: n }, () => word).join(' ');

describe('countWords', () => {
  it('counts whitespace-separated words, ignoring punctuation-only tokens', () => {
    expect(countWords('The 9% rate — what it means')).toBe(6);
    expect(countWords('  spaced\n\tout  ')).toBe(2);
    expect(countWords('')).toBe(0);
    expect(countWords(' - • – ')).toBe(0);
  });

  it('counts Arabic words by whitespace too', () => {
    expect(countWords('تُطبَّق ضريبة الشركات في الإمارات منذ 1 يونيو 2023')).toBe(9);
    expect(countWords('الأرباح حتى 375,000 درهم')).toBe(4);
  });
});

describe('body word count', () => {
  it('reads only the spans of text blocks', () => {
    const body = [
      block('Hello world.'),
      { _type: 'image', _key: 'i', alt: 'a picture of many words here' },
      block('Two ', 'spans here.'),
    ];
    expect(spanTexts(body)).toEqual(['Hello world.', 'Two ', 'spans here.']);
    expect(bodyWordCount(body)).toBe(5);
  });

  it('keeps a word split across adjacent spans as one word, but separates blocks', () => {
    expect(bodyWordCount([block('the UAE', "'s market")])).toBe(3);
    expect(bodyWordCount([block('end'), block('start')])).toBe(2);
  });

  it('tolerates missing or odd input', () => {
    expect(bodyWordCount(undefined)).toBe(0);
    expect(bodyWordCount([{ _type: 'block' }, { _type: 'block', children: [{ _type: 'span' }] }])).toBe(0);
  });
});

describe('readTimeMinutes', () => {
  it('is never less than one minute', () => {
    expect(readTimeMinutes([])).toBe(1);
    expect(readTimeMinutes([block('short')])).toBe(1);
  });

  it('uses about 200 words a minute', () => {
    expect(readTimeMinutes([block(words(200))])).toBe(1);
    expect(readTimeMinutes([block(words(400))])).toBe(2);
    expect(readTimeMinutes([block(words(699)), block(words(600))])).toBe(6);
    expect(readTimeMinutes([block(words(1000))])).toBe(5);
    expect(readTimeMinutes([block(words(1000))], 250)).toBe(4);
  });

  it('gives Arabic bodies a reading time from their own words', () => {
    expect(readTimeMinutes([block(words(1000, 'كلمة'))])).toBe(5);
  });
});
