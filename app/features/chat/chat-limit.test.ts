import { describe, expect, it } from 'vitest';
import { localDateKey, minutesUntilNextDay } from './calendar-date';
import { DAILY_LIMIT, WAIT_SCHEDULE_MINUTES, createChatLimiter } from './chat-limit';
import { HISTORY_SIZE, STORAGE_KEYS, createMemoryStorage, type Attempt, type StorageLike } from './chat-limit-storage';

const MIN = 60_000;
const TZ = 'Asia/Dubai'; // UTC+4, no daylight saving
/** 2025-03-10 09:00 in Dubai. */
const T0 = Date.UTC(2025, 2, 10, 5, 0, 0);

function setup(initial: Record<string, string> = {}, start = T0) {
  let t = start;
  const storage = createMemoryStorage(initial);
  let seed = 1;
  const random = () => {
    // small deterministic LCG
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  const limiter = createChatLimiter({ storage, now: () => t, random, timeZone: TZ });
  return {
    limiter,
    storage,
    at: (ms: number) => {
      t = ms;
    },
    advance: (ms: number) => {
      t += ms;
    },
    now: () => t,
  };
}

const opens = (...timestamps: number[]): Attempt[] =>
  timestamps.map((timestamp) => ({ timestamp, success: true, waitTime: 0 }));
describe('a fresh visitor', () => {
  it('is allowed, and the first open counts, dates and timestamps the use', () => {
    const { limiter, storage } = setup();
    expect(limiter.check()).toEqual({ status: 'allowed', remaining: 2, max: 3 });
    expect(limiter.attempt()).toEqual({ status: 'opened', used: 1, remaining: 2, max: 3 });
    expect(storage.getItem(STORAGE_KEYS.dailyCount)).toBe('1');
    expect(storage.getItem(STORAGE_KEYS.countDate)).toBe('2025-03-10');
    expect(storage.getItem(STORAGE_KEYS.lastAccess)).toBe(String(T0));
    expect(JSON.parse(storage.getItem(STORAGE_KEYS.attempts) ?? '')).toEqual(opens(T0));
    expect(storage.getItem(STORAGE_KEYS.verificationRequired)).toBeNull();
  });

  it('gets a random wa_ session id that is stored once and then kept', () => {
    const { limiter, storage } = setup();
    const id = limiter.getSessionId();
    expect(id).toMatch(/^wa_[0-9a-z]{16}$/);
    expect(storage.getItem(STORAGE_KEYS.sessionId)).toBe(id);
    limiter.attempt();
    expect(limiter.getSessionId()).toBe(id);
    // another visitor (another random stream) gets another id
    const other = createChatLimiter({
      storage: createMemoryStorage(),
      random: () => 0.5,
      now: () => T0,
    });
    expect(other.getSessionId()).not.toBe(id);
  });

  it('check() changes nothing', () => {
    const { limiter, storage } = setup();
    limiter.check();
    limiter.check();
    for (const key of Object.values(STORAGE_KEYS)) expect(storage.getItem(key)).toBeNull();
  });
});

describe('a whole day, step by step', () => {
  it('opens, waits 5 and 15 minutes, verifies, hits the daily limit and resets tomorrow', () => {
    const { limiter, advance, at, now } = setup();

    // 1st chat: never delayed
    expect(limiter.attempt()).toMatchObject({ status: 'opened', used: 1, remaining: 2 });

    // right after: 1 open in the last hour -> 5 minutes from that open
    expect(limiter.attempt()).toEqual({
      status: 'blocked',
      reason: 'wait',
      waitMinutes: 5,
      used: 1,
      max: 3,
    });
    advance(4 * MIN + 30_000);
    expect(limiter.check()).toMatchObject({ status: 'blocked', reason: 'wait', waitMinutes: 1 });
    advance(30_000);
    expect(limiter.check()).toEqual({ status: 'allowed', remaining: 1, max: 3 });

    // 2nd chat: brings the count to 2, so the flag is set
    expect(limiter.attempt()).toEqual({ status: 'opened', used: 2, remaining: 1, max: 3 });
    expect(limiter.snapshot().verificationRequired).toBe(true);

    // 2 opens in the last hour -> 15 minutes from the last open; blocks come before verification
    expect(limiter.check()).toMatchObject({ status: 'blocked', reason: 'wait', waitMinutes: 15, used: 2 });
    advance(15 * MIN);
    expect(limiter.check()).toEqual({ status: 'verify' });
    expect(limiter.attempt()).toEqual({ status: 'verify' });
    expect(limiter.snapshot().dailyCount).toBe(2); // asking for verification records nothing

    // solved: the flag clears and the chat opens at once
    expect(limiter.markVerified()).toEqual({ status: 'opened', used: 3, remaining: 0, max: 3 });
    // the open brought the count to 3 (>= 2): the flag is set again
    expect(limiter.snapshot().verificationRequired).toBe(true);

    // daily limit: blocked with the minutes to local midnight
    advance(2 * 60 * MIN); // 11:20 Dubai
    const midnight = Date.UTC(2025, 2, 10, 20, 0, 0); // 00:00 Dubai on the 11th
    expect(limiter.attempt()).toEqual({
      status: 'blocked',
      reason: 'daily',
      waitMinutes: Math.ceil((midnight - now()) / MIN),
      used: 3,
      max: 3,
    });

    at(midnight - MIN);
    expect(limiter.check()).toMatchObject({ status: 'blocked', reason: 'daily', waitMinutes: 1 });

    // next calendar day: count back to 0, but the flag survives until a verification
    at(midnight);
    expect(limiter.check()).toEqual({ status: 'verify' });
    expect(limiter.markVerified()).toEqual({ status: 'opened', used: 1, remaining: 2, max: 3 });
    expect(limiter.snapshot()).toMatchObject({
      dailyCount: 1,
      countDate: '2025-03-11',
      verificationRequired: false,
    });
    advance(5 * MIN);
    expect(limiter.check()).toEqual({ status: 'allowed', remaining: 1, max: 3 });
  });
});

describe('the hourly wait', () => {
  it.each([
    [0, 0],
    [1, 5],
    [2, 15],
    [3, 30],
    [4, 60],
    [5, 60],
    [9, 60],
  ])('%i open(s) in the last hour -> %i minutes after the last open', (n, minutes) => {
    // n opens in the last 50 minutes, the last one just now; the day's count is
    // yesterday's, so neither the daily limit nor verification interferes.
    const times = Array.from({ length: n }, (_, i) => T0 - (n - 1 - i) * Math.floor((50 * MIN) / n));
    const { limiter, advance } = setup({
      [STORAGE_KEYS.attempts]: JSON.stringify(opens(...times)),
      [STORAGE_KEYS.dailyCount]: '3',
      [STORAGE_KEYS.countDate]: '2025-03-09',
    });
    if (minutes === 0) {
      expect(limiter.check()).toEqual({ status: 'allowed', remaining: 2, max: 3 });
      return;
    }
    expect(limiter.check()).toEqual({
      status: 'blocked',
      reason: 'wait',
      waitMinutes: minutes,
      used: 0,
      max: 3,
    });
    advance(minutes * MIN - 1);
    expect(limiter.check()).toMatchObject({ status: 'blocked', waitMinutes: 1 });
    advance(1);
    expect(limiter.check().status).toBe('allowed');
  });

  it('uses the schedule 0/5/15/30/60', () => {
    expect(WAIT_SCHEDULE_MINUTES).toEqual([0, 5, 15, 30, 60]);
    expect(DAILY_LIMIT).toBe(3);
    expect(HISTORY_SIZE).toBe(10);
  });

  it('counts the opens of the hour up to the last open, and measures from that open', () => {
    // 61 minutes between the opens: only the last counts -> 5 min from 2 min ago
    const one = setup({
      [STORAGE_KEYS.attempts]: JSON.stringify(opens(T0 - 63 * MIN, T0 - 2 * MIN)),
    });
    expect(one.limiter.check()).toMatchObject({ status: 'blocked', reason: 'wait', waitMinutes: 3 });

    // 59 minutes between them: both count -> 15 min from 2 min ago
    const both = setup({
      [STORAGE_KEYS.attempts]: JSON.stringify(opens(T0 - 61 * MIN, T0 - 2 * MIN)),
    });
    expect(both.limiter.check()).toMatchObject({ status: 'blocked', reason: 'wait', waitMinutes: 13 });

    const two = setup({ [STORAGE_KEYS.attempts]: JSON.stringify(opens(T0 - 30 * MIN, T0 - 10 * MIN)) });
    expect(two.limiter.check()).toMatchObject({ status: 'blocked', waitMinutes: 5 });
  });

  it('serves a long wait in full even as the earlier opens age out', () => {
    // 3 opens 20 minutes apart -> 30 minutes after the last, although the first
    // open leaves the hour 20 minutes from now
    const { limiter, advance } = setup({
      [STORAGE_KEYS.attempts]: JSON.stringify(opens(T0 - 40 * MIN, T0 - 20 * MIN, T0)),
    });
    advance(25 * MIN);
    expect(limiter.check()).toMatchObject({ status: 'blocked', waitMinutes: 5 });
    advance(5 * MIN);
    expect(limiter.check().status).toBe('allowed');
  });

  it('reaches the 30 and 60 minute steps across midnight', () => {
    const evening = Date.UTC(2025, 2, 10, 19, 30); // 23:30 Dubai
    const { limiter, advance } = setup({}, evening);
    expect(limiter.attempt().status).toBe('opened'); // 23:30
    advance(5 * MIN);
    expect(limiter.attempt().status).toBe('opened'); // 23:35
    advance(15 * MIN);
    expect(limiter.markVerified().status).toBe('opened'); // 23:50, 3rd today
    advance(10 * MIN); // 00:00, a new day: the count is 0 but 3 opens in the hour
    expect(limiter.check()).toMatchObject({ status: 'blocked', reason: 'wait', waitMinutes: 20, used: 0 });
    advance(20 * MIN);
    expect(limiter.check()).toEqual({ status: 'verify' }); // the flag from yesterday
    expect(limiter.markVerified()).toMatchObject({ status: 'opened', used: 1 }); // 00:20
    // 4 opens within the hour up to 00:20 -> 60 minutes
    expect(limiter.check()).toMatchObject({ status: 'blocked', reason: 'wait', waitMinutes: 60 });
    advance(60 * MIN);
    expect(limiter.check()).toEqual({ status: 'allowed', remaining: 1, max: 3 });
  });

  it('takes the last access time into account even when the history is lost', () => {
    const { limiter } = setup({ [STORAGE_KEYS.lastAccess]: String(T0 - MIN) });
    expect(limiter.check()).toMatchObject({ status: 'blocked', reason: 'wait', waitMinutes: 4 });
  });

  it('never lengthens a wait for clicks made while blocked, and the wait shown never grows', () => {
    const { limiter, advance } = setup();
    limiter.attempt();
    const shown: number[] = [];
    for (let i = 0; i < 40; i++) {
      const r = limiter.attempt();
      if (r.status !== 'blocked') break;
      shown.push(r.waitMinutes);
      advance(10_000);
    }
    // 5 minutes = 30 ticks of 10 s: 30 blocked clicks, then the open
    expect(shown).toHaveLength(30);
    expect(shown[0]).toBe(5);
    expect(shown.at(-1)).toBe(1);
    for (let i = 1; i < shown.length; i++) expect(shown[i]).toBeLessThanOrEqual(shown[i - 1]!);
    expect(limiter.snapshot().dailyCount).toBe(2);
  });

  it('cannot be escaped by flooding the history with blocked clicks', () => {
    const { limiter, advance } = setup();
    limiter.attempt();
    advance(5 * MIN);
    limiter.attempt(); // 2nd open
    for (let i = 0; i < 25; i++) {
      advance(10_000);
      expect(limiter.attempt()).toMatchObject({ status: 'blocked', reason: 'wait' });
    }
    const attempts = limiter.snapshot().attempts;
    expect(attempts.filter((a) => a.success)).toHaveLength(2);
    expect(attempts.filter((a) => !a.success)).toHaveLength(1);
    expect(attempts.at(-1)).toMatchObject({ success: false, waitTime: 11 });
  });

  it('ignores timestamps in the future (device clock moved back)', () => {
    const { limiter } = setup({
      [STORAGE_KEYS.lastAccess]: String(T0 + 3 * 60 * MIN),
      [STORAGE_KEYS.attempts]: JSON.stringify(opens(T0 + 3 * 60 * MIN)),
    });
    expect(limiter.check().status).toBe('allowed');
  });
});

describe('verification', () => {
  it('is not required after the first open of the day', () => {
    const { limiter, advance } = setup();
    limiter.attempt();
    expect(limiter.snapshot().verificationRequired).toBe(false);
    advance(5 * MIN);
    expect(limiter.check().status).toBe('allowed');
  });

  it('is required whenever the flag is set, even with a count of 0', () => {
    const { limiter } = setup({ [STORAGE_KEYS.verificationRequired]: 'true' });
    expect(limiter.check()).toEqual({ status: 'verify' });
    expect(limiter.attempt()).toEqual({ status: 'verify' });
  });

  it("is required once the day's count reaches 2, even without the flag", () => {
    const { limiter } = setup({
      [STORAGE_KEYS.dailyCount]: '2',
      [STORAGE_KEYS.countDate]: '2025-03-10',
    });
    expect(limiter.check()).toEqual({ status: 'verify' });
  });

  it('a count of 2 from another day does not require it', () => {
    const { limiter } = setup({
      [STORAGE_KEYS.dailyCount]: '2',
      [STORAGE_KEYS.countDate]: '2025-03-09',
    });
    expect(limiter.check()).toEqual({ status: 'allowed', remaining: 2, max: 3 });
  });

  it('markVerified clears the flag but still honours a wait (recorded as blocked)', () => {
    const { limiter, storage } = setup({
      [STORAGE_KEYS.verificationRequired]: 'true',
      [STORAGE_KEYS.lastAccess]: String(T0 - MIN),
    });
    expect(limiter.markVerified()).toMatchObject({ status: 'blocked', reason: 'wait', waitMinutes: 4 });
    expect(storage.getItem(STORAGE_KEYS.verificationRequired)).toBeNull();
    expect(limiter.snapshot().attempts).toEqual([{ timestamp: T0, success: false, waitTime: 4 }]);
  });

  it('markVerified still honours the daily limit', () => {
    const { limiter } = setup({
      [STORAGE_KEYS.dailyCount]: '3',
      [STORAGE_KEYS.countDate]: '2025-03-10',
      [STORAGE_KEYS.verificationRequired]: 'true',
    });
    expect(limiter.markVerified()).toMatchObject({ status: 'blocked', reason: 'daily', used: 3 });
    expect(limiter.snapshot().dailyCount).toBe(3);
  });
});

describe('the daily count and the calendar date', () => {
  it('resets when the local date changes, not after 24 hours', () => {
    // 23:50 Dubai, three chats used today
    const lateEvening = Date.UTC(2025, 2, 10, 19, 50);
    const { limiter, at } = setup(
      {
        [STORAGE_KEYS.dailyCount]: '3',
        [STORAGE_KEYS.countDate]: '2025-03-10',
      },
      lateEvening,
    );
    expect(limiter.check()).toEqual({ status: 'blocked', reason: 'daily', waitMinutes: 10, used: 3, max: 3 });
    at(lateEvening + 10 * MIN); // 00:00 Dubai
    expect(limiter.check()).toEqual({ status: 'allowed', remaining: 2, max: 3 });
    expect(limiter.attempt()).toMatchObject({ status: 'opened', used: 1 });
    expect(limiter.snapshot().countDate).toBe('2025-03-11');
  });

  it('blocks for the daily limit before anything else', () => {
    const { limiter } = setup({
      [STORAGE_KEYS.dailyCount]: '7',
      [STORAGE_KEYS.countDate]: '2025-03-10',
      [STORAGE_KEYS.lastAccess]: String(T0 - MIN),
      [STORAGE_KEYS.verificationRequired]: 'true',
    });
    expect(limiter.check()).toMatchObject({ status: 'blocked', reason: 'daily', used: 3, max: 3 });
  });

  it('localDateKey follows the given time zone', () => {
    const t = Date.UTC(2025, 0, 1, 20, 30);
    expect(localDateKey(t, 'Asia/Dubai')).toBe('2025-01-02');
    expect(localDateKey(t, 'UTC')).toBe('2025-01-01');
    expect(localDateKey(t, 'America/Los_Angeles')).toBe('2025-01-01');
    const d = new Date(t);
    const local = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    expect(localDateKey(t)).toBe(local);
  });

  it('minutesUntilNextDay rounds up and handles daylight saving days', () => {
    expect(minutesUntilNextDay(Date.UTC(2025, 2, 10, 19, 59, 30), 'Asia/Dubai')).toBe(1);
    expect(minutesUntilNextDay(Date.UTC(2025, 2, 10, 20, 0, 0), 'Asia/Dubai')).toBe(24 * 60);
    // New York, 2025-03-09 starts at 05:00Z and lasts 23 hours
    expect(minutesUntilNextDay(Date.UTC(2025, 2, 9, 5, 0), 'America/New_York')).toBe(23 * 60);
    // 2025-11-02 lasts 25 hours
    expect(minutesUntilNextDay(Date.UTC(2025, 10, 2, 4, 0), 'America/New_York')).toBe(25 * 60);
  });
});

describe('the attempt history', () => {
  it('keeps the newest 10 entries', () => {
    const old = opens(...Array.from({ length: 10 }, (_, i) => T0 - (300 - i) * MIN));
    const { limiter } = setup({ [STORAGE_KEYS.attempts]: JSON.stringify(old) });
    limiter.attempt();
    const attempts = limiter.snapshot().attempts;
    expect(attempts).toHaveLength(10);
    expect(attempts[0]).toEqual(old[1]);
    expect(attempts.at(-1)).toEqual({ timestamp: T0, success: true, waitTime: 0 });
  });

  it('keeps alternating opens and blocks, and merges repeated blocks', () => {
    const { limiter, advance } = setup();
    limiter.attempt(); // open
    advance(MIN);
    limiter.attempt(); // blocked, 4 min
    advance(MIN);
    limiter.attempt(); // blocked again, 3 min: replaces the previous one
    advance(3 * MIN);
    limiter.attempt(); // open
    advance(MIN);
    limiter.attempt(); // blocked 14 min
    expect(limiter.snapshot().attempts).toEqual([
      { timestamp: T0, success: true, waitTime: 0 },
      { timestamp: T0 + 2 * MIN, success: false, waitTime: 3 },
      { timestamp: T0 + 5 * MIN, success: true, waitTime: 0 },
      { timestamp: T0 + 6 * MIN, success: false, waitTime: 14 },
    ]);
  });

  it('trims an over-long stored history to the newest 10', () => {
    const many = opens(...Array.from({ length: 14 }, (_, i) => T0 - (500 - i) * MIN));
    const { limiter } = setup({ [STORAGE_KEYS.attempts]: JSON.stringify(many) });
    expect(limiter.snapshot().attempts).toEqual(many.slice(4));
  });
});

describe('corrupt, missing or failing storage', () => {
  it.each([['NaN'], ['-1'], ['1.5'], ['1e3'], [''], ['  2'], ['9999999999']])(
    'a daily count of %j is treated as 0',
    (raw) => {
      const { limiter } = setup({
        [STORAGE_KEYS.dailyCount]: raw,
        [STORAGE_KEYS.countDate]: '2025-03-10',
      });
      expect(limiter.check()).toEqual({ status: 'allowed', remaining: 2, max: 3 });
      expect(limiter.attempt()).toMatchObject({ status: 'opened', used: 1 });
    },
  );

  it('treats garbage in every key as fresh state', () => {
    const { limiter, storage } = setup({
      [STORAGE_KEYS.sessionId]: 'not an id<script>',
      [STORAGE_KEYS.dailyCount]: 'three',
      [STORAGE_KEYS.countDate]: 'yesterday',
      [STORAGE_KEYS.lastAccess]: 'soon',
      [STORAGE_KEYS.attempts]: '{not json',
      [STORAGE_KEYS.verificationRequired]: 'yes',
    });
    expect(limiter.snapshot()).toEqual({
      sessionId: null,
      dailyCount: 0,
      countDate: null,
      lastAccess: null,
      attempts: [],
      verificationRequired: false,
    });
    expect(limiter.attempt()).toMatchObject({ status: 'opened', used: 1 });
    expect(storage.getItem(STORAGE_KEYS.sessionId)).toMatch(/^wa_/);
  });

  it.each([['"a string"'], ['null'], ['42'], ['{"timestamp":1}']])(
    'an attempts value of %s is an empty history',
    (raw) => {
      const { limiter } = setup({ [STORAGE_KEYS.attempts]: raw });
      expect(limiter.snapshot().attempts).toEqual([]);
      expect(limiter.check().status).toBe('allowed');
    },
  );

  it('drops malformed history entries and keeps the valid ones', () => {
    const good = { timestamp: T0 - 2 * MIN, success: true, waitTime: 0 };
    const { limiter } = setup({
      [STORAGE_KEYS.attempts]: JSON.stringify([
        null,
        1,
        { timestamp: 'x', success: true, waitTime: 0 },
        { timestamp: T0, success: 'yes', waitTime: 0 },
        { timestamp: T0, success: true, waitTime: -5 },
        { timestamp: -1, success: true, waitTime: 0 },
        { ...good, extra: '<b>' },
      ]),
    });
    expect(limiter.snapshot().attempts).toEqual([good]);
    expect(limiter.check()).toMatchObject({ status: 'blocked', waitMinutes: 3 });
  });

  it('never throws when the storage throws on every call', () => {
    const broken: StorageLike = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const limiter = createChatLimiter({ storage: broken, now: () => T0, timeZone: TZ });
    expect(limiter.check()).toEqual({ status: 'allowed', remaining: 2, max: 3 });
    expect(limiter.attempt()).toMatchObject({ status: 'opened' });
    expect(() =>
      limiter.recordBlocked({ status: 'blocked', reason: 'wait', waitMinutes: 5, used: 1, max: 3 }),
    ).not.toThrow();
    expect(limiter.markVerified()).toMatchObject({ status: 'opened' });
    expect(limiter.getSessionId()).toMatch(/^wa_/);
  });

  it('keeps working when getItem returns non-strings', () => {
    const odd = { getItem: () => 42 as unknown as string, setItem: () => {}, removeItem: () => {} };
    const limiter = createChatLimiter({ storage: odd, now: () => T0 });
    expect(limiter.check().status).toBe('allowed');
  });
});

describe('shared storage (two tabs)', () => {
  it('a second limiter on the same storage sees the first one\u2019s opens', () => {
    const storage = createMemoryStorage();
    const a = createChatLimiter({ storage, now: () => T0, timeZone: TZ });
    const b = createChatLimiter({ storage, now: () => T0 + MIN, timeZone: TZ });
    a.attempt();
    expect(b.check()).toMatchObject({ status: 'blocked', reason: 'wait', waitMinutes: 4, used: 1 });
  });
});
