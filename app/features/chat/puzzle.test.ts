import { describe, expect, it } from 'vitest';
import arChat from '../../../public/locales/ar/chat.json';
import {
  MAX_WRONG_ANSWERS,
  OPERATORS,
  checkAnswer,
  createPuzzle,
  openVerification,
  parseAnswer,
  questionValues,
  submitAnswer,
  toAsciiDigits,
  toastForVerification,
  verificationErrorKey,
  type Puzzle,
} from './puzzle';

/** Deterministic uniform source in [0, 1) (mulberry32). */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Returns the given values in turn, then repeats the last. */
function sequence(...values: number[]) {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
}

const compute = (p: Puzzle) => (p.op === '+' ? p.a + p.b : p.op === '-' ? p.a - p.b : p.a * p.b);

describe('createPuzzle', () => {
  it('draws numbers 1..10 and +, -, ×, with the right answer, over many draws', () => {
    const random = seeded(42);
    const as = new Set<number>();
    const bs = new Set<number>();
    const ops = new Map<string, number>();
    for (let i = 0; i < 5000; i++) {
      const p = createPuzzle(random);
      expect(Number.isInteger(p.a) && p.a >= 1 && p.a <= 10).toBe(true);
      expect(Number.isInteger(p.b) && p.b >= 1 && p.b <= 10).toBe(true);
      expect(OPERATORS).toContain(p.op);
      expect(p.answer).toBe(compute(p));
      if (p.op === '-') expect(p.answer).toBeGreaterThanOrEqual(0);
      as.add(p.a);
      bs.add(p.b);
      ops.set(p.op, (ops.get(p.op) ?? 0) + 1);
    }
    expect([...as].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([...bs].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([...ops.keys()].sort()).toEqual(['+', '-', '×']);
    // each operator roughly a third of the time
    for (const n of ops.values()) expect(n).toBeGreaterThan(1400);
  });

  it('covers the extremes of the random source', () => {
    expect(createPuzzle(() => 0)).toEqual({ a: 1, op: '+', b: 1, answer: 2 });
    expect(createPuzzle(() => 0.9999999)).toEqual({ a: 10, op: '×', b: 10, answer: 100 });
    // out-of-range or broken sources are clamped, never out of 1..10
    for (const r of [1, 5, -3, Number.NaN, Number.POSITIVE_INFINITY]) {
      const p = createPuzzle(() => r);
      expect(p.a).toBeGreaterThanOrEqual(1);
      expect(p.a).toBeLessThanOrEqual(10);
      expect(p.b).toBeGreaterThanOrEqual(1);
      expect(p.b).toBeLessThanOrEqual(10);
    }
  });

  it('puts the larger number first for subtraction', () => {
    // x = 3, y = 8, op = '-'
    const p = createPuzzle(sequence(0.2, 0.75, 0.5));
    expect(p).toEqual({ a: 8, op: '-', b: 3, answer: 5 });
  });

  it('gives a different puzzle than the previous one, even with a stuck random source', () => {
    const previous: Puzzle = { a: 4, op: '+', b: 4, answer: 8 };
    const stuck = () => 0.3; // always 4 + 4
    expect(createPuzzle(stuck)).toEqual(previous);
    const next = createPuzzle(stuck, previous);
    expect(next).not.toEqual(previous);
    expect(next.answer).toBe(compute(next));

    const random = seeded(7);
    let p = createPuzzle(random);
    for (let i = 0; i < 500; i++) {
      const q = createPuzzle(random, p);
      expect([q.a, q.op, q.b]).not.toEqual([p.a, p.op, p.b]);
      p = q;
    }
  });

  it('question values hold no answer', () => {
    expect(questionValues({ a: 7, op: '×', b: 6, answer: 42 })).toEqual({ a: 7, op: '×', b: 6 });
  });
});

describe('parseAnswer and checkAnswer', () => {
  const p: Puzzle = { a: 6, op: '+', b: 6, answer: 12 };

  it.each([
    ['12', 12],
    ['  12 ', 12],
    ['012', 12],
    ['-4', -4],
    ['\u22124', -4],
    ['١٢', 12],
    ['۱۲', 12],
    ['٠', 0],
    ['\u200F١٢\u200E', 12],
    ['12.0', 12],
    ['12.5', 12.5],
    ['١٢٫٥', 12.5],
  ])('reads %j as %d', (input, n) => {
    expect(parseAnswer(input)).toBe(n);
  });

  it.each([
    [''],
    ['   '],
    ['abc'],
    ['1e'],
    ['1e3'],
    ['0x10'],
    ['--1'],
    ['+5'],
    ['1.'],
    ['.5'],
    ['12a'],
    ['1 2'],
    ['Infinity'],
    ['NaN'],
    ['١٢x'],
    ['12345678901'],
  ])('%j is not a number', (input) => {
    expect(parseAnswer(input)).toBeNull();
    expect(checkAnswer(p, input)).toBe('invalid');
  });

  it('tells right from wrong', () => {
    expect(checkAnswer(p, '12')).toBe('correct');
    expect(checkAnswer(p, '١٢')).toBe('correct');
    expect(checkAnswer(p, '12.0')).toBe('correct');
    expect(checkAnswer(p, '13')).toBe('wrong');
    expect(checkAnswer(p, '-12')).toBe('wrong');
    expect(checkAnswer({ a: 3, op: '-', b: 7, answer: -4 }, '-4')).toBe('correct');
    expect(checkAnswer({ a: 9, op: '×', b: 9, answer: 81 }, '٨١')).toBe('correct');
  });

  it('toAsciiDigits converts both Arabic digit sets', () => {
    expect(toAsciiDigits('٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹ +971')).toBe('0123456789 0123456789 +971');
  });
});

describe('the verification dialog state', () => {
  const fixed = (p: Omit<Puzzle, 'answer'>): Puzzle => ({ ...p, answer: compute({ ...p, answer: 0 }) });

  it('starts fresh on each opening with a new puzzle', () => {
    const random = seeded(3);
    const first = openVerification(random);
    expect(first).toMatchObject({ wrongAnswers: 0, error: null, verified: false });
    const again = openVerification(random, first.puzzle);
    expect(again.puzzle).not.toEqual(first.puzzle);
  });

  it('an invalid entry shows the number message and does not count as wrong', () => {
    const state = { ...openVerification(seeded(1)), puzzle: fixed({ a: 2, op: '+', b: 3 }) };
    const { state: s1, effect } = submitAnswer(state, 'abc');
    expect(effect).toBeNull();
    expect(s1).toMatchObject({ error: 'invalid', wrongAnswers: 0, verified: false });
    expect(verificationErrorKey(s1.error)).toBe('chat:verify.invalidNumber');
  });

  it('two wrong answers keep the puzzle; the third makes a new one and resets the counter', () => {
    const puzzle = fixed({ a: 2, op: '+', b: 3 });
    let state = { ...openVerification(seeded(1)), puzzle };
    let r = submitAnswer(state, '4');
    expect(r).toMatchObject({ effect: null, state: { wrongAnswers: 1, error: 'wrong', puzzle } });
    expect(verificationErrorKey(r.state.error)).toBe('chat:verify.incorrect');
    r = submitAnswer(r.state, 'x'); // invalid in between: not counted
    expect(r.state).toMatchObject({ wrongAnswers: 1, error: 'invalid' });
    r = submitAnswer(r.state, '6');
    expect(r.state).toMatchObject({ wrongAnswers: 2, error: 'wrong', puzzle });
    r = submitAnswer(r.state, '7', seeded(99));
    expect(r.effect).toBe('failed');
    expect(r.state).toMatchObject({ wrongAnswers: 0, error: null, verified: false });
    expect(r.state.puzzle).not.toEqual(puzzle);
    expect(MAX_WRONG_ANSWERS).toBe(3);

    // the old answer no longer works unless it happens to be the new one
    state = r.state;
    const correct = submitAnswer(state, String(state.puzzle.answer));
    expect(correct.effect).toBe('verified');
    expect(correct.state).toMatchObject({ verified: true, error: null });
  });

  it('a right answer verifies; nothing changes afterwards', () => {
    const state = { ...openVerification(seeded(1)), puzzle: fixed({ a: 9, op: '-', b: 4 }) };
    const r = submitAnswer(state, ' 5 ');
    expect(r.effect).toBe('verified');
    expect(submitAnswer(r.state, 'nonsense')).toEqual({ state: r.state, effect: null });
  });

  it('after a correct answer following wrong ones, the counter does not matter', () => {
    let state = { ...openVerification(seeded(1)), puzzle: fixed({ a: 1, op: '×', b: 8 }) };
    state = submitAnswer(state, '9').state;
    state = submitAnswer(state, '7').state;
    expect(submitAnswer(state, '8').effect).toBe('verified');
  });

  it('toasts: failed is destructive, verified is default', () => {
    expect(toastForVerification('failed')).toEqual({
      titleKey: 'chat:verify.failedTitle',
      descriptionKey: 'chat:verify.failed',
      values: {},
      variant: 'destructive',
    });
    expect(toastForVerification('verified')).toEqual({
      titleKey: 'chat:verify.successTitle',
      descriptionKey: 'chat:verify.success',
      values: {},
      variant: 'default',
    });
    expect(toastForVerification(null)).toBeNull();
    expect(verificationErrorKey(null)).toBeNull();
  });
});

describe('the question in Arabic', () => {
  it('shows the sum left to right, in the order it is computed', () => {
    // After Arabic words, "9 - 3" would otherwise be laid out as "3 - 9": read left to right, -6.
    expect(arChat.verify.question).toContain('\u2066{{a}} {{op}} {{b}}\u2069');
  });
});
