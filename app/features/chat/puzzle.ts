/**
 * The Security Verification puzzle (docs/requirements.md#chat-and-booking): two numbers from 1 to
 * 10 and an operator from +, - and ×; a new puzzle on each opening of the dialog and
 * after the 3rd wrong answer (the wrong-answer counter then starts again).
 *
 * Choices:
 * - For '-', the larger number comes first, so the answer is never negative (phone
 *   number pads often have no minus key). A leading minus is still accepted.
 * - A replacement puzzle always differs from the one it replaces ("Let's try with a
 *   different question").
 * - Answers are read leniently: surrounding spaces, Arabic-Indic (٠-٩) and Persian
 *   (۰-۹) digits, the Arabic decimal separator (٫), the minus sign (−) and invisible
 *   direction marks are accepted. Anything else that is not a plain decimal number
 *   ('', 'abc', '1e', '1e3', '0x10', '--1', '1.', …) is 'invalid' and does not count
 *   as a wrong answer.
 */
import type { ToastMessage } from './chat-toast';
import { toAsciiDigits } from '~/lib/digits';

export type Operator = '+' | '-' | '×';
export const OPERATORS: readonly Operator[] = ['+', '-', '×'];
export const PUZZLE_MIN = 1;
export const PUZZLE_MAX = 10;
export const MAX_WRONG_ANSWERS = 3;

export interface Puzzle {
  a: number;
  op: Operator;
  b: number;
  answer: number;
}

/** Uniform in [0, 1), like Math.random. */
export type RandomSource = () => number;

function pick(random: RandomSource, n: number): number {
  const r = random();
  const x = Number.isFinite(r) ? r : 0;
  return Math.min(n - 1, Math.max(0, Math.floor(x * n)));
}

function build(x: number, y: number, op: Operator): Puzzle {
  const [a, b] = op === '-' && y > x ? [y, x] : [x, y];
  const answer = op === '+' ? a + b : op === '-' ? a - b : a * b;
  return { a, op, b, answer };
}

const same = (p: Puzzle, q: Puzzle) => p.a === q.a && p.b === q.b && p.op === q.op;

/** A random puzzle; when `previous` is given, one that differs from it. */
export function createPuzzle(random: RandomSource = Math.random, previous?: Puzzle): Puzzle {
  const span = PUZZLE_MAX - PUZZLE_MIN + 1;
  const draw = () =>
    build(
      PUZZLE_MIN + pick(random, span),
      PUZZLE_MIN + pick(random, span),
      OPERATORS[pick(random, OPERATORS.length)] ?? '+',
    );
  let puzzle = draw();
  for (let i = 0; previous && same(puzzle, previous) && i < 10; i++) puzzle = draw();
  if (previous && same(puzzle, previous)) {
    // A degenerate random source: change the second number deterministically.
    puzzle = build(puzzle.a, (puzzle.b % span) + PUZZLE_MIN, puzzle.op);
  }
  return puzzle;
}

/** Interpolation values for the question text ('What is {{a}} {{op}} {{b}}?'). */
export function questionValues(puzzle: Puzzle): { a: number; op: Operator; b: number } {
  return { a: puzzle.a, op: puzzle.op, b: puzzle.b };
}

export { toAsciiDigits };

const DIRECTION_MARKS = /[\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/g;

/** The number the visitor typed, or null when it is not a plain decimal number. */
export function parseAnswer(input: string): number | null {
  const s = toAsciiDigits(input)
    .replace(DIRECTION_MARKS, '')
    .trim()
    .replace(/^\u2212/, '-')
    .replace(/\u066B/, '.');
  if (!/^-?\d{1,9}(\.\d{1,9})?$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

export type AnswerCheck = 'invalid' | 'wrong' | 'correct';

export function checkAnswer(puzzle: Puzzle, input: string): AnswerCheck {
  const n = parseAnswer(input);
  if (n === null) return 'invalid';
  return n === puzzle.answer ? 'correct' : 'wrong';
}

// ---------------------------------------------------------------- dialog state

export interface VerificationState {
  puzzle: Puzzle;
  /** Wrong answers to the current puzzle (0, 1 or 2). */
  wrongAnswers: number;
  /** The inline message under the input; null when none. */
  error: 'invalid' | 'wrong' | null;
  verified: boolean;
}

/**
 * What the UI does besides rendering the new state:
 * - 'failed': the 3rd wrong answer; toast 'Verification Failed' (a new puzzle is shown);
 * - 'verified': toast 'Verification Successful', close the dialog, open the chat
 *   (limiter.markVerified()).
 */
export type VerificationEffect = 'failed' | 'verified' | null;

/** The state for a dialog that has just opened (a fresh puzzle each time). */
export function openVerification(random: RandomSource = Math.random, previous?: Puzzle): VerificationState {
  return { puzzle: createPuzzle(random, previous), wrongAnswers: 0, error: null, verified: false };
}

/** Handles Verify / Enter. Pure apart from `random`, used only for a replacement puzzle. */
export function submitAnswer(
  state: VerificationState,
  input: string,
  random: RandomSource = Math.random,
): { state: VerificationState; effect: VerificationEffect } {
  if (state.verified) return { state, effect: null };
  const result = checkAnswer(state.puzzle, input);
  if (result === 'invalid') return { state: { ...state, error: 'invalid' }, effect: null };
  if (result === 'correct') {
    return { state: { ...state, error: null, verified: true }, effect: 'verified' };
  }
  const wrongAnswers = state.wrongAnswers + 1;
  if (wrongAnswers >= MAX_WRONG_ANSWERS) {
    return { state: openVerification(random, state.puzzle), effect: 'failed' };
  }
  return { state: { ...state, wrongAnswers, error: 'wrong' }, effect: null };
}

/** i18next keys (namespace `chat`) of the dialog. */
export const VERIFY_KEYS = {
  title: 'chat:verify.title',
  description: 'chat:verify.description',
  question: 'chat:verify.question',
  answerLabel: 'chat:verify.answerLabel',
  answerPlaceholder: 'chat:verify.answerPlaceholder',
  cancel: 'chat:verify.cancel',
  submit: 'chat:verify.submit',
  invalidNumber: 'chat:verify.invalidNumber',
  incorrect: 'chat:verify.incorrect',
  failedTitle: 'chat:verify.failedTitle',
  failed: 'chat:verify.failed',
  successTitle: 'chat:verify.successTitle',
  success: 'chat:verify.success',
} as const;

/** The key of the inline error message, or null. */
export function verificationErrorKey(error: VerificationState['error']): string | null {
  if (error === 'invalid') return VERIFY_KEYS.invalidNumber;
  if (error === 'wrong') return VERIFY_KEYS.incorrect;
  return null;
}

/** The toast for an effect, or null (a fresh object each time). */
export function toastForVerification(effect: VerificationEffect): ToastMessage | null {
  if (!effect) return null;
  const [titleKey, descriptionKey, variant] =
    effect === 'failed'
      ? ([VERIFY_KEYS.failedTitle, VERIFY_KEYS.failed, 'destructive'] as const)
      : ([VERIFY_KEYS.successTitle, VERIFY_KEYS.success, 'default'] as const);
  return { titleKey, descriptionKey, values: {}, variant };
}
