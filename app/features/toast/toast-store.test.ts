import { describe, expect, it } from 'vitest';
import {
  reduceToasts,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
  TOAST_DURATION,
  TOAST_SWIPE_THRESHOLD,
  TOAST_HOTKEY,
  type ToastItem,
} from './toast-store';

const item = (id: string): ToastItem => ({ id, title: id, open: true, variant: 'default' });

describe('toast store', () => {
  it('has the required constants', () => {
    expect([TOAST_LIMIT, TOAST_REMOVE_DELAY, TOAST_DURATION, TOAST_SWIPE_THRESHOLD, TOAST_HOTKEY]).toEqual([
      1,
      1_000_000,
      5000,
      50,
      ['F8'],
    ]);
  });
  it('keeps one toast: a new one replaces the old', () => {
    let s = reduceToasts({ toasts: [] }, { type: 'add', toast: item('a') });
    s = reduceToasts(s, { type: 'add', toast: item('b') });
    expect(s.toasts.map((t) => t.id)).toEqual(['b']);
  });
  it('dismiss closes but keeps the toast; remove drops it', () => {
    let s = reduceToasts({ toasts: [item('a')] }, { type: 'dismiss', id: 'a' });
    expect(s.toasts).toEqual([{ ...item('a'), open: false }]);
    s = reduceToasts(s, { type: 'remove', id: 'a' });
    expect(s.toasts).toEqual([]);
  });
  it('dismiss and remove without an id apply to all', () => {
    expect(reduceToasts({ toasts: [item('a')] }, { type: 'dismiss' }).toasts[0]!.open).toBe(false);
    expect(reduceToasts({ toasts: [item('a')] }, { type: 'remove' }).toasts).toEqual([]);
  });
});
