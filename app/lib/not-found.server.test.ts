import { describe, expect, it } from 'vitest';
import { notFound } from './not-found.server';

describe('notFound', () => {
  it('is a 404 carrying the localized page title in each language', async () => {
    const en = await notFound('en');
    const ar = await notFound('ar');
    expect(en.init?.status).toBe(404);
    expect(ar.init?.status).toBe(404);
    expect(en.data).toEqual({ title: 'Page not found' });
    expect(ar.data.title).toMatch(/[\u0600-\u06FF]/);
    expect(ar.data.title).not.toBe(en.data.title);
  });
});
