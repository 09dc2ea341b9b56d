import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChatLimiter } from './chat-limit';
import { browserStorage, createMemoryStorage } from './chat-limit-storage';

describe('browserStorage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('uses localStorage when it works', () => {
    const ls = createMemoryStorage();
    vi.stubGlobal('localStorage', ls);
    expect(browserStorage()).toBe(ls);
  });

  it('falls back to memory when localStorage is missing or refuses writes', () => {
    vi.stubGlobal('localStorage', undefined);
    const mem = browserStorage();
    mem.setItem('k', 'v');
    expect(mem.getItem('k')).toBe('v');

    vi.stubGlobal('localStorage', {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    });
    const fallback = browserStorage();
    fallback.setItem('k', 'v');
    expect(fallback.getItem('k')).toBe('v');
  });

  it('the default limiter runs without a window (SSR)', () => {
    vi.stubGlobal('localStorage', undefined);
    expect(createChatLimiter().check().status).toBe('allowed');
  });
});
