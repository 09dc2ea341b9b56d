/**
 * GET /locales/{lng}/all.json: the browser's strings of one language in one answer, equal to the
 * key files the server renders with, kept for good only under the current version.
 */
import { readFileSync } from 'node:fs';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { describe, expect, it } from 'vitest';
import { locales, namespaces } from '~/i18n';
import { i18nVersion } from '~/i18next.server';
import { loader } from './key-file';

const get = (lng: string, v = i18nVersion) =>
  loader({
    params: { lng },
    request: new Request(`http://localhost/locales/${lng}/all.json?v=${v}`),
    context: {},
  } as LoaderFunctionArgs);

describe('the key file', () => {
  it.each(locales)('%s: every browser namespace, as in public/locales, kept for good', async (lng) => {
    const response = get(lng);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([...namespaces].sort());
    for (const ns of namespaces)
      expect(body[ns]).toEqual(JSON.parse(readFileSync(`public/locales/${lng}/${ns}.json`, 'utf8')));
    // The emails' strings are the server's only.
    expect(body).not.toHaveProperty('emails');
  });

  it('answers an old version with the current strings, kept for a minute only', async () => {
    const response = get('ar', 'old0000000');
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=60');
    expect(Object.keys((await response.json()) as object)).toContain('common');
  });

  it('has no file for a language the site does not have', () => {
    for (const lng of ['fr', 'EN', '..', 'en%2F..']) expect(get(lng).status).toBe(404);
  });
});
