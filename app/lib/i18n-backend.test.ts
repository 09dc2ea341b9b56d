/**
 * The browser's i18next backend with a real i18next instance: a page's strings are fetched from
 * the language's one versioned key file, a failed answer worth retrying is retried, and a
 * missing file is not.
 */
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keyFilesBackend } from './i18n-backend';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const AR = { common: { language: { label: 'اللغة' } }, chat: { tooltip: 'تحدث معنا' } };
const EN = { common: { language: { label: 'Language' } }, chat: { tooltip: 'Chat with us' } };

async function instance(fetchImpl: typeof fetch) {
  vi.stubGlobal('fetch', fetchImpl);
  const i18n = i18next.createInstance();
  await i18n.use(keyFilesBackend('abc123')).init({
    lng: 'ar',
    fallbackLng: false,
    ns: ['common', 'chat'],
    defaultNS: 'common',
    maxRetries: 2,
    retryTimeout: 1,
  });
  return i18n;
}

afterEach(() => vi.unstubAllGlobals());

describe('keyFilesBackend', () => {
  it('loads every namespace of the page language with one request to its versioned file', async () => {
    const urls: string[] = [];
    const i18n = await instance(async (input) => {
      urls.push(String(input));
      return json(String(input).includes('/ar/') ? AR : EN);
    });
    expect(urls).toEqual(['/locales/ar/all.json?v=abc123']);
    expect(i18n.t('language.label')).toBe('اللغة');
    expect(i18n.t('tooltip', { ns: 'chat' })).toBe('تحدث معنا');

    // Switching language fetches the other language's file, once.
    await i18n.changeLanguage('en');
    expect(urls).toEqual(['/locales/ar/all.json?v=abc123', '/locales/en/all.json?v=abc123']);
    expect(i18n.t('tooltip', { ns: 'chat' })).toBe('Chat with us');
  });

  it('retries a server error and a network failure, then has the strings', async () => {
    let calls = 0;
    const i18n = await instance(async () => {
      calls += 1;
      if (calls === 1) return json({ error: 'busy' }, 503);
      if (calls === 2) throw new TypeError('Failed to fetch');
      return json(AR);
    });
    expect(calls).toBe(3);
    expect(i18n.t('language.label')).toBe('اللغة');
    expect(i18n.t('tooltip', { ns: 'chat' })).toBe('تحدث معنا');
  });

  it('does not retry a missing file: the key stays untranslated and i18next reports the failure', async () => {
    let calls = 0;
    const failed = vi.fn();
    vi.stubGlobal('fetch', async () => {
      calls += 1;
      return json({}, 404);
    });
    const i18n = i18next.createInstance();
    i18n.on('failedLoading', failed);
    await i18n
      .use(keyFilesBackend('v'))
      .init({ lng: 'en', fallbackLng: false, ns: ['common'], maxRetries: 3, retryTimeout: 1 });
    expect(calls).toBe(1);
    expect(failed).toHaveBeenCalledWith(
      'en',
      'common',
      expect.objectContaining({ message: expect.stringContaining('404') }),
    );
    expect(i18n.t('language.label')).toBe('language.label');
  });
});
