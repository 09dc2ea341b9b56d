/**
 * WhatsApp chat limiter: the rules deciding whether a click on the chat button opens
 * the chat. Pure logic: the clock, the storage and the random source are injected, so
 * it runs the same in the browser, during SSR (in-memory storage) and in tests.
 *
 * State is read and written through chat-limit-storage.ts.
 *
 * Rules, in the order check() applies them:
 *  1. Daily limit. At most DAILY_LIMIT (3) chats are opened per local calendar day.
 *     The count belongs to its date; on another date it counts as 0 (the counter
 *     resets when the calendar date changes). Blocked with reason 'daily'; its
 *     waitMinutes is the time until the next local midnight.
 *  2. Hourly wait. Only chats that were actually opened count ("opens"); blocked
 *     clicks never lengthen a wait, so a visitor trying again is not punished.
 *     The wait is measured from the most recent open and fixed at that moment:
 *     n = opens in the 60 minutes up to and including it, and the wait is
 *     WAIT_SCHEDULE_MINUTES[min(n, 4)] = 0/5/15/30/60 minutes (n = 0: no open yet,
 *     so the first chat is never delayed). So the second chat may come 5 minutes
 *     after the first, the third 15 minutes after the second. (With the daily limit
 *     of 3, the 30 and 60 minute steps are reached only when opens of two days fall
 *     within one hour around midnight.) A wait once shown only counts down.
 *     Blocked with reason 'wait', waitMinutes rounded up (never 0 while blocked).
 *  3. Verification. Required when the flag is set, or when the day's count is
 *     already VERIFY_FROM_COUNT (2) or more. The flag is set by an open that brings
 *     the count to 2 or more, and cleared only by a successful verification (so it
 *     survives the date change: after a day with 2+ chats, the next chat asks for the
 *     puzzle once). A solved puzzle admits exactly one open: markVerified() clears
 *     the flag and opens at once, re-checking rules 1 and 2 only.
 *  4. Otherwise allowed.
 *
 * History: every open appends {success: true, waitTime: 0}; every blocked click
 * appends {success: false, waitTime: minutes told to wait}, except that a blocked
 * click right after another blocked click replaces it. So hammering the button can
 * neither flood the history nor push out the opens that rule 2 counts (there are at
 * most 4 opens in any hour, and the newest 10 entries are kept).
 *
 * Timestamps in the future (the device clock was moved back) are ignored.
 */

import { minutesUntilNextDay, localDateKey } from './calendar-date';
import {
  browserStorage,
  HISTORY_SIZE,
  readState,
  safeSet,
  STORAGE_KEYS,
  type Attempt,
  type ChatLimiterState,
  type StorageLike,
} from './chat-limit-storage';

export const DAILY_LIMIT = 3;
export const VERIFY_FROM_COUNT = 2;
/** Minutes to wait by the number of opens in the last hour: index 0, 1, 2, 3, 4+. */
export const WAIT_SCHEDULE_MINUTES = [0, 5, 15, 30, 60] as const;
export const HOUR_MS = 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

export interface BlockedResult {
  status: 'blocked';
  reason: 'daily' | 'wait';
  waitMinutes: number;
  used: number;
  max: number;
}
export interface VerifyResult {
  status: 'verify';
}
/** `remaining` is what will be left after this open (what the toast shows). */
export interface AllowedResult {
  status: 'allowed';
  remaining: number;
  max: number;
}
export interface OpenedResult {
  status: 'opened';
  used: number;
  remaining: number;
  max: number;
}
export type CheckResult = BlockedResult | VerifyResult | AllowedResult;
export type AttemptResult = BlockedResult | VerifyResult | OpenedResult;

export interface ChatLimiter {
  /** Reads the rules without changing anything. */
  check(): CheckResult;
  /**
   * One click on the chat button: check, then record. 'opened' means open the chat
   * now (in the click handler, so popup blockers allow it); 'verify' means show the
   * Security Verification dialog; 'blocked' means show the destructive toast.
   */
  attempt(): AttemptResult;
  /** Records an open (count, date, last access, history, flag). Unconditional. */
  recordOpen(): OpenedResult;
  /** Records a blocked click in the history. */
  recordBlocked(result: BlockedResult): void;
  /**
   * The visitor solved the puzzle: clears the flag and opens (records the open and
   * returns 'opened') unless the daily limit or a wait applies ('blocked', recorded).
   * Do not call attempt() afterwards.
   */
  markVerified(): OpenedResult | BlockedResult;
  /** The session id, created and stored on first use. */
  getSessionId(): string;
  /** The stored state as read now (normalised; for debugging and tests). */
  snapshot(): ChatLimiterState;
}

export interface ChatLimiterOptions {
  /** Defaults to window.localStorage when usable, else an in-memory store. */
  storage?: StorageLike;
  now?: () => number;
  /** Uniform in [0, 1); used for the session id. */
  random?: () => number;
  /** IANA zone for the calendar date; defaults to the runtime's local zone. */
  timeZone?: string;
}

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export function createChatLimiter(options: ChatLimiterOptions = {}): ChatLimiter {
  const storage = options.storage ?? browserStorage();
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const { timeZone } = options;

  const today = (t: number) => localDateKey(t, timeZone);

  const countToday = (state: ChatLimiterState, t: number) => (state.countDate === today(t) ? state.dailyCount : 0);

  function newSessionId(): string {
    let id = 'wa_';
    for (let i = 0; i < 16; i++) {
      const r = random();
      const x = Number.isFinite(r) ? Math.min(Math.max(r, 0), 0.999999) : 0;
      id += ID_ALPHABET[Math.floor(x * ID_ALPHABET.length)];
    }
    return id;
  }

  function ensureSessionId(state: ChatLimiterState): string {
    if (state.sessionId) return state.sessionId;
    const id = newSessionId();
    safeSet(storage, STORAGE_KEYS.sessionId, id);
    return id;
  }

  function writeAttempts(attempts: Attempt[]) {
    safeSet(storage, STORAGE_KEYS.attempts, JSON.stringify(attempts.slice(-HISTORY_SIZE)));
  }

  /** Rules 1 and 2; null when neither blocks. */
  function blockFor(state: ChatLimiterState, t: number): BlockedResult | null {
    const used = countToday(state, t);
    if (used >= DAILY_LIMIT) {
      return {
        status: 'blocked',
        reason: 'daily',
        waitMinutes: minutesUntilNextDay(t, timeZone),
        used: DAILY_LIMIT,
        max: DAILY_LIMIT,
      };
    }
    const opens = state.attempts.filter((a) => a.success && a.timestamp <= t).map((a) => a.timestamp);
    if (state.lastAccess !== null && state.lastAccess <= t) opens.push(state.lastAccess);
    if (opens.length === 0) return null;
    const lastOpen = Math.max(...opens);
    const n = new Set(opens.filter((ts) => lastOpen - ts < HOUR_MS)).size;
    const wait = WAIT_SCHEDULE_MINUTES[Math.min(n, WAIT_SCHEDULE_MINUTES.length - 1)] ?? 0;
    const left = lastOpen + wait * MINUTE_MS - t;
    if (left <= 0) return null;
    return {
      status: 'blocked',
      reason: 'wait',
      waitMinutes: Math.ceil(left / MINUTE_MS),
      used,
      max: DAILY_LIMIT,
    };
  }

  function check(): CheckResult {
    const t = now();
    const state = readState(storage);
    const blocked = blockFor(state, t);
    if (blocked) return blocked;
    const used = countToday(state, t);
    if (state.verificationRequired || used >= VERIFY_FROM_COUNT) return { status: 'verify' };
    return { status: 'allowed', remaining: Math.max(0, DAILY_LIMIT - used - 1), max: DAILY_LIMIT };
  }

  function recordOpen(): OpenedResult {
    const t = now();
    const state = readState(storage);
    ensureSessionId(state);
    const used = countToday(state, t) + 1;
    safeSet(storage, STORAGE_KEYS.dailyCount, String(used));
    safeSet(storage, STORAGE_KEYS.countDate, today(t));
    safeSet(storage, STORAGE_KEYS.lastAccess, String(t));
    writeAttempts([...state.attempts, { timestamp: t, success: true, waitTime: 0 }]);
    if (used >= VERIFY_FROM_COUNT) safeSet(storage, STORAGE_KEYS.verificationRequired, 'true');
    return { status: 'opened', used, remaining: Math.max(0, DAILY_LIMIT - used), max: DAILY_LIMIT };
  }

  function recordBlocked(result: BlockedResult): void {
    const t = now();
    const state = readState(storage);
    ensureSessionId(state);
    const entry: Attempt = { timestamp: t, success: false, waitTime: result.waitMinutes };
    const last = state.attempts[state.attempts.length - 1];
    const kept = last && !last.success ? state.attempts.slice(0, -1) : state.attempts;
    writeAttempts([...kept, entry]);
  }

  function attempt(): AttemptResult {
    const result = check();
    if (result.status === 'blocked') {
      recordBlocked(result);
      return result;
    }
    if (result.status === 'verify') return result;
    return recordOpen();
  }

  function markVerified(): OpenedResult | BlockedResult {
    try {
      storage.removeItem(STORAGE_KEYS.verificationRequired);
    } catch {
      // Denied storage: nothing was stored either.
    }
    const blocked = blockFor(readState(storage), now());
    if (blocked) {
      recordBlocked(blocked);
      return blocked;
    }
    return recordOpen();
  }

  return {
    check,
    attempt,
    recordOpen,
    recordBlocked,
    markVerified,
    getSessionId: () => ensureSessionId(readState(storage)),
    snapshot: () => readState(storage),
  };
}
