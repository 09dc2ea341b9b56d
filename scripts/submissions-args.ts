import type { SubmissionKind } from '~/features/forms/export.server';

/** The arguments of `npm run submissions` (scripts/submissions.ts). */
export type Arguments = { since: Date; until?: Date; kinds: SubmissionKind[]; csv: boolean };

const DAY = 86_400_000;

function day(value: string | undefined, name: string): Date {
  if (!value || !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(\.\d+)?Z?)?$/.test(value))
    throw new Error(`${name} takes a date (2026-11-01) or a UTC time (2026-11-01T09:30Z)`);
  const date = new Date(/T/.test(value) && !value.endsWith('Z') ? `${value}Z` : value);
  if (Number.isNaN(date.getTime())) throw new Error(`${name}: ${value} is not a date`);
  return date;
}

export function parseArguments(argv: string[], now = Date.now()): Arguments {
  const args: Arguments = { since: new Date(now - 30 * DAY), kinds: ['faq', 'newsletter'], csv: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--csv') args.csv = true;
    else if (arg === '--since') args.since = day(argv[++i], '--since');
    else if (arg === '--until') args.until = day(argv[++i], '--until');
    else if (arg === '--kind') {
      const kind = argv[++i];
      if (kind !== 'faq' && kind !== 'newsletter') throw new Error('--kind takes faq or newsletter');
      args.kinds = [kind];
    } else throw new Error(`unknown argument ${arg}`);
  }
  if (args.until && args.until <= args.since) throw new Error('--until must be after --since');
  return args;
}
