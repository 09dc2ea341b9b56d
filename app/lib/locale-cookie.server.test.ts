import { describe, expect, it } from 'vitest';
import { LOCALE_COOKIE, localeCookieValue } from '~/i18n';
import { chosenLocale, localeCookie } from './locale-cookie.server';

const withCookie = (cookie: string) => new Request('http://x.test/', { headers: { Cookie: cookie } });

describe('the language cookie', () => {
  it('reads what the language menu writes in the browser', async () => {
    expect(await chosenLocale(withCookie(`${LOCALE_COOKIE}=${localeCookieValue('ar')}`))).toBe('ar');
    expect(await chosenLocale(withCookie(`a=1; ${LOCALE_COOKIE}=${localeCookieValue('en')}; b=2`))).toBe('en');
  });

  it("writes in the browser what Remix's cookie serializes", async () => {
    for (const locale of ['en', 'ar'] as const)
      expect((await localeCookie.serialize(locale)).split(';')[0]).toBe(
        `${LOCALE_COOKIE}=${localeCookieValue(locale)}`,
      );
  });

  it('ignores a missing, foreign or forged value', async () => {
    expect(await chosenLocale(new Request('http://x.test/'))).toBeNull();
    expect(await chosenLocale(withCookie('other=ar'))).toBeNull();
    expect(await chosenLocale(withCookie(`${LOCALE_COOKIE}=fr`))).toBeNull();
    expect(
      await chosenLocale(withCookie(`${LOCALE_COOKIE}=${encodeURIComponent(btoa(JSON.stringify('fr')))}`)),
    ).toBeNull();
    expect(await chosenLocale(withCookie(`${LOCALE_COOKIE}=%%%`))).toBeNull();
  });
});
