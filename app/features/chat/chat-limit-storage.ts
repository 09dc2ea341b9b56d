/**
 * Where the WhatsApp chat limiter keeps its state: localStorage in the browser, one key
 * each (see STORAGE_KEYS): session id (random, `wa_` prefix) · daily count · date of
 * that count (local calendar date, YYYY-MM-DD) · last access (ms of the last chat
 * actually opened) · attempts (the last HISTORY_SIZE of {timestamp ms, success,
 * waitTime minutes}) · the verification-required flag.
 *
 * Storage that throws (private mode, disabled) or holds missing, corrupt or
 * out-of-range values reads as fresh for that value; nothing here throws.
 */

/** The subset of the Web Storage API the limiter uses. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** How many attempts the history keeps (the newest). */
export const HISTORY_SIZE = 10;

export const STORAGE_KEYS = {
  sessionId: 'wa_chat_session_id',
  dailyCount: 'wa_chat_daily_count',
  countDate: 'wa_chat_count_date',
  lastAccess: 'wa_chat_last_access',
  attempts: 'wa_chat_attempts',
  verificationRequired: 'wa_chat_verification_required',
} as const;

export interface Attempt {
  timestamp: number;
  success: boolean;
  /** Minutes the visitor was told to wait (0 for an open). */
  waitTime: number;
}

export interface ChatLimiterState {
  sessionId: string | null;
  dailyCount: number;
  countDate: string | null;
  lastAccess: number | null;
  attempts: Attempt[];
  verificationRequired: boolean;
}

export function createMemoryStorage(initial: Record<string, string> = {}): StorageLike {
  const map = new Map<string, string>(Object.entries(initial));
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => {
      map.set(key, String(value));
    },
    removeItem: (key) => {
      map.delete(key);
    },
  };
}

/** window.localStorage if it exists and accepts a write, otherwise in-memory. */
export function browserStorage(): StorageLike {
  try {
    const ls = (globalThis as { localStorage?: StorageLike }).localStorage;
    if (ls) {
      const probe = '__wa_chat_probe__';
      ls.setItem(probe, '1');
      ls.removeItem(probe);
      return ls;
    }
  } catch {
    // Access denied or quota exceeded: fall through.
  }
  return createMemoryStorage();
}

export function safeGet(storage: StorageLike, key: string): string | null {
  try {
    const v = storage.getItem(key);
    return typeof v === 'string' ? v : null;
  } catch {
    return null;
  }
}

export function safeSet(storage: StorageLike, key: string, value: string): void {
  try {
    storage.setItem(key, value);
  } catch {
    // Storage full or denied: the limiter degrades to "fresh", never throws.
  }
}

const SESSION_ID_RE = /^wa_[a-z0-9]{8,64}$/;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function parseCount(raw: string | null): number {
  if (raw === null || !/^\d{1,6}$/.test(raw)) return 0;
  return Number(raw);
}

function parseTimestamp(raw: string | null): number | null {
  if (raw === null || !/^\d{1,16}$/.test(raw)) return null;
  return Number(raw);
}

function isAttempt(v: unknown): v is Attempt {
  if (typeof v !== 'object' || v === null) return false;
  const a = v as Record<string, unknown>;
  return (
    typeof a.timestamp === 'number' &&
    Number.isFinite(a.timestamp) &&
    a.timestamp >= 0 &&
    typeof a.success === 'boolean' &&
    typeof a.waitTime === 'number' &&
    Number.isFinite(a.waitTime) &&
    a.waitTime >= 0
  );
}

function parseAttempts(raw: string | null): Attempt[] {
  if (raw === null) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value
    .filter(isAttempt)
    .map(({ timestamp, success, waitTime }) => ({ timestamp, success, waitTime }))
    .slice(-HISTORY_SIZE);
}

export function readState(storage: StorageLike): ChatLimiterState {
  const sessionId = safeGet(storage, STORAGE_KEYS.sessionId);
  const countDate = safeGet(storage, STORAGE_KEYS.countDate);
  return {
    sessionId: sessionId !== null && SESSION_ID_RE.test(sessionId) ? sessionId : null,
    dailyCount: parseCount(safeGet(storage, STORAGE_KEYS.dailyCount)),
    countDate: countDate !== null && DATE_RE.test(countDate) ? countDate : null,
    lastAccess: parseTimestamp(safeGet(storage, STORAGE_KEYS.lastAccess)),
    attempts: parseAttempts(safeGet(storage, STORAGE_KEYS.attempts)),
    verificationRequired: safeGet(storage, STORAGE_KEYS.verificationRequired) === 'true',
  };
}
