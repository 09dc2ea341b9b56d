/**
 * The toast store (docs/requirements.md#chat-and-booking): at most TOAST_LIMIT (1) toast is kept, so a
 * new toast replaces the one shown; a dismissed toast stays in state (closed, for its
 * exit animation) until TOAST_REMOVE_DELAY (1,000,000 ms) has passed or another toast
 * replaces it. Module-level, so any component (and the chat and booking handlers) can
 * call toast() without a context; the Toaster subscribes through useToast().
 */
import { useEffect, useState } from 'react';

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;
export const TOAST_DURATION = 5000;
export const TOAST_SWIPE_THRESHOLD = 50;
export const TOAST_HOTKEY = ['F8'];

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds; defaults to the provider's TOAST_DURATION. */
  duration?: number;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
  variant: ToastVariant;
}

type State = { toasts: ToastItem[] };
type Listener = (state: State) => void;

export type ToastAction =
  { type: 'add'; toast: ToastItem } | { type: 'dismiss'; id?: string } | { type: 'remove'; id?: string };

/** Pure state transition (unit-tested). */
export function reduceToasts(state: State, action: ToastAction): State {
  switch (action.type) {
    case 'add':
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case 'dismiss':
      return {
        toasts: state.toasts.map((t) => (action.id === undefined || t.id === action.id ? { ...t, open: false } : t)),
      };
    case 'remove':
      return { toasts: action.id === undefined ? [] : state.toasts.filter((t) => t.id !== action.id) };
  }
}

let memory: State = { toasts: [] };
const listeners = new Set<Listener>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function dispatch(action: ToastAction) {
  memory = reduceToasts(memory, action);
  for (const l of listeners) l(memory);
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      dispatch({ type: 'remove', id });
    }, TOAST_REMOVE_DELAY),
  );
}

export function dismissToast(id?: string) {
  for (const t of memory.toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  dispatch({ type: 'dismiss', id });
}

/** Shows a toast (replacing the current one); returns its id. */
export function toast(input: ToastInput): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = `toast-${counter}`;
  // The replaced toast leaves state now; its pending removal timer is no longer needed.
  for (const t of memory.toasts) {
    const timer = removeTimers.get(t.id);
    if (timer) clearTimeout(timer);
    removeTimers.delete(t.id);
  }
  dispatch({ type: 'add', toast: { ...input, id, open: true, variant: input.variant ?? 'default' } });
  return id;
}

export function useToast() {
  const [state, setState] = useState(memory);
  useEffect(() => {
    listeners.add(setState);
    setState(memory);
    return () => {
      listeners.delete(setState);
    };
  }, []);
  return { toasts: state.toasts, toast, dismiss: dismissToast };
}
