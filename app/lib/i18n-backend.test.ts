/**
 * The browser's key files: a page's strings are fetched from the language's one versioned key
 * file, a failed answer worth retrying is retried, and a missing file is not.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keyFiles } from './i18n-backend';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const AR = { common: { language: { label: 'اللغة' } }, chat: { tooltip: 'تحدث معنا' } };
const EN = { common: { language: { label: 'Language' } }, chat: { tooltip: 'Chat with us' } };
const say = ({ t }: { t: unknown }, key: string) => (t as (key: string) => string)(key);

afterEach(() => vi.unstubAllGlobals());

describe('keyFiles', () => {
  it('loads every namespace of a language with one request to its versioned file', async () => {
    const urls: string[] = [];
    vi.stubGlobal('fetch', async (input: unknown) => {
      urls.push(String(input));
      return json(String(input).includes('/ar/') ? AR : EN);
    });
    const files = keyFiles('abc123');
    await Promise.all([files.load('ar'), files.load('ar')]);
    expect(urls).toEqual(['/locales/ar/all.json?v=abc123']);
    expect(say(files.translation('ar', 'common'), 'language.label')).toBe('اللغة');
    expect(say(files.translation('ar', 'chat'), 'tooltip')).toBe('تحدث معنا');

    // Switching language fetches the other language's file, once.
    await files.load('en');
    await files.load('ar');
    expect(urls).toEqual(['/locales/ar/all.json?v=abc123', '/locales/en/all.json?v=abc123']);
    expect(say(files.translation('en', 'chat'), 'tooltip')).toBe('Chat with us');
  });

  it('retries a server error and a network failure, then has the strings', async () => {
    let calls = 0;
    vi.stubGlobal('fetch', async () => {
      calls += 1;
      if (calls === 1) return json({ error: 'busy' }, 503);
      if (calls === 2) throw new TypeError('Failed to fetch');
      return json(AR);
    });
    const files = keyFiles('v', { retries: 2, retryMs: 1 });
    await files.load('ar');
    expect(calls).toBe(3);
    expect(say(files.translation('ar', 'common'), 'language.label')).toBe('اللغة');
  });

  it('does not retry a missing file: the key stays untranslated, the failure is reported, a later load tries again', async () => {
    let calls = 0;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal('fetch', async () => {
      calls += 1;
      return calls === 1 ? json({}, 404) : json(EN);
    });
    const files = keyFiles('v', { retries: 3, retryMs: 1 });
    await files.load('en');
    expect(calls).toBe(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('404'));
    expect(say(files.translation('en', 'common'), 'language.label')).toBe('language.label');
    await files.load('en');
    expect(say(files.translation('en', 'common'), 'language.label')).toBe('Language');
    warn.mockRestore();
  });
});

it('keeps one translation per language and namespace until a file arrives', async () => {
  vi.stubGlobal('fetch', async () => json(EN));
  const files = keyFiles('v');
  const before = files.translation('en', 'common');
  expect(files.translation('en', 'common')).toBe(before);
  expect(say(before, 'language.label')).toBe('language.label');
  await files.load('en');
  expect(say(files.translation('en', 'common'), 'language.label')).toBe('Language');
});
