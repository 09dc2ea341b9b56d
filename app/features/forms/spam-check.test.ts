import { describe, expect, it } from 'vitest';
import { FORM_TOKEN_FIELD, HONEYPOT_FIELD } from './fields';
import {
  checkSpam,
  createFormToken,
  MIN_FILL_MS,
  PAGE_TOKEN_MAX_AGE_MS,
  readFormToken,
  readFormTokenOf,
  TOKEN_MAX_AGE_MS,
} from './spam-check';

const valid = {
  name: '  Layla Haddad ',
  email: ' layla@example.ae ',
  phone: '+971 50-123 4567',
  question: 'How long does a free zone licence take?',
};

describe('spam checks', () => {
  const secret = 'test-secret';
  const t0 = 1_700_000_000_000;

  async function form(extra: Record<string, string> = {}, issuedAt = t0) {
    return { ...valid, [FORM_TOKEN_FIELD]: await createFormToken(issuedAt, secret), [HONEYPOT_FIELD]: '', ...extra };
  }

  it('a signed token round-trips', async () => {
    const token = await createFormToken(t0, secret);
    expect(token).toMatch(/^1700000000000\.[A-Za-z0-9_-]{43}$/);
    expect(await readFormToken(token, secret)).toBe(t0);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['garbage', 'hello'],
    ['unsigned', '1700000000000'],
  ])('a %s token is unreadable', async (_label, token) => {
    expect(await readFormToken(token, secret)).toBeNull();
  });

  it('a forged time, a wrong secret or a mangled signature is unreadable', async () => {
    const token = await createFormToken(t0, secret);
    const [, sig] = token.split('.');
    expect(await readFormToken(`${t0 - 60_000}.${sig}`, secret)).toBeNull();
    expect(await readFormToken(token, 'other-secret')).toBeNull();
    const flipped = sig!.startsWith('A') ? `B${sig!.slice(1)}` : `A${sig!.slice(1)}`;
    expect(await readFormToken(`${t0}.${flipped}`, secret)).toBeNull();
    expect(await readFormToken(`${t0}.${sig}===`, secret)).toBeNull();
  });

  it('a page token carries its kind in what is signed: a visitor token cannot be relabelled', async () => {
    const page = await createFormToken(t0, secret, 'page');
    expect(page).toMatch(/^1700000000000\.p\.[A-Za-z0-9_-]{43}$/);
    expect(await readFormTokenOf(page, secret)).toEqual({ issuedAt: t0, kind: 'page' });
    const visitor = await createFormToken(t0, secret);
    expect(await readFormTokenOf(visitor, secret)).toEqual({ issuedAt: t0, kind: 'visitor' });
    const [stamp, sig] = visitor.split('.');
    expect(await readFormTokenOf(`${stamp}.p.${sig}`, secret)).toBeNull();
    expect(await readFormTokenOf(page.replace('.p.', '.'), secret)).toBeNull();
  });

  it('a page token is accepted for PAGE_TOKEN_MAX_AGE_MS, still not within 3 s of the render', async () => {
    const pageForm = async () => ({ ...(await form()), [FORM_TOKEN_FIELD]: await createFormToken(t0, secret, 'page') });
    expect(await checkSpam(await pageForm(), { secret, now: t0 + 2999 })).toMatchObject({ reason: 'tooFast' });
    expect(await checkSpam(await pageForm(), { secret, now: t0 + TOKEN_MAX_AGE_MS + 1 })).toEqual({ ok: true });
    expect(await checkSpam(await pageForm(), { secret, now: t0 + PAGE_TOKEN_MAX_AGE_MS })).toEqual({ ok: true });
    expect(await checkSpam(await pageForm(), { secret, now: t0 + PAGE_TOKEN_MAX_AGE_MS + 1 })).toMatchObject({
      reason: 'expired',
    });
  });

  it('passes a person who took their time', async () => {
    expect(await checkSpam(await form(), { secret, now: t0 + MIN_FILL_MS })).toEqual({ ok: true });
    // Anything up to the token's two hours is a person taking their time.
    expect(await checkSpam(await form(), { secret, now: t0 + TOKEN_MAX_AGE_MS - 1000 })).toEqual({ ok: true });
  });

  it('too fast: under 3 seconds', async () => {
    expect(MIN_FILL_MS).toBe(3000);
    expect(await checkSpam(await form(), { secret, now: t0 + 2999 })).toEqual({
      ok: false,
      reason: 'tooFast',
      titleKey: 'forms:spamTitle',
      messageKey: 'forms:spamTooFast',
    });
    expect(await checkSpam(await form(), { secret, now: t0 + 9000, minFillMs: 10_000 })).toMatchObject({
      reason: 'tooFast',
    });
  });

  it('a filled honeypot is caught first', async () => {
    expect(
      await checkSpam(await form({ [HONEYPOT_FIELD]: 'https://spam.test' }), { secret, now: t0 + 10_000 }),
    ).toEqual({
      ok: false,
      reason: 'honeypot',
      titleKey: 'forms:spamTitle',
      messageKey: 'forms:spamHoneypot',
    });
    // whitespace only is not "filled"
    expect(await checkSpam(await form({ [HONEYPOT_FIELD]: '  ' }), { secret, now: t0 + 10_000 })).toEqual({ ok: true });
  });

  it('no token yet (a post without JavaScript) asks to confirm; a forged or future token asks to submit again', async () => {
    const noToken = { ...valid, [HONEYPOT_FIELD]: '' };
    expect(await checkSpam(noToken, { secret, now: t0 })).toEqual({
      ok: false,
      reason: 'missing',
      titleKey: 'forms:confirmTitle',
      messageKey: 'forms:confirmSend',
    });
    expect(await checkSpam({ ...noToken, [FORM_TOKEN_FIELD]: '   ' }, { secret, now: t0 })).toMatchObject({
      reason: 'missing',
    });
    expect(await checkSpam({ ...noToken, [FORM_TOKEN_FIELD]: 'garbage' }, { secret, now: t0 })).toMatchObject({
      reason: 'expired',
      messageKey: 'forms:spamExpired',
    });
    expect(await checkSpam(await form(), { secret: 'rotated', now: t0 + 10_000 })).toMatchObject({ reason: 'expired' });
    expect(await checkSpam(await form({}, t0 + 60_000), { secret, now: t0 })).toMatchObject({ reason: 'expired' });
  });

  it('a token is accepted for two hours, then expired (a token dated 1970 too)', async () => {
    expect(await checkSpam(await form(), { secret, now: t0 + TOKEN_MAX_AGE_MS })).toEqual({ ok: true });
    expect(await checkSpam(await form(), { secret, now: t0 + TOKEN_MAX_AGE_MS + 1 })).toMatchObject({
      reason: 'expired',
      messageKey: 'forms:spamExpired',
    });
    expect(await checkSpam(await form({}, 0), { secret, now: t0 })).toMatchObject({ reason: 'expired' });
  });

  it('works from FormData', async () => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(await form())) fd.set(k, v);
    expect(await checkSpam(fd, { secret, now: t0 + 5000 })).toEqual({ ok: true });
  });
});
