import type { ReactNode } from 'react';
import { CmsText } from '~/components/CmsText';

/** The looks of a band's small cards, by what they show: the frame, the title's and the text's classes. */
const LOOKS = {
  /** A value of the firm (about page): a numbered card on the sand band. */
  value: {
    card: 'rounded-2xl border border-sand-200 bg-white p-6 shadow-sm',
    title: 'mt-2 text-xl font-semibold text-navy-900',
    text: 'mt-2 leading-7 text-navy-700',
  },
  /** A company setup option (services page): a translucent card on the navy band. */
  setupOption: {
    card: 'rounded-2xl bg-white/5 p-6 ring-1 ring-white/15 md:p-8',
    title: 'mt-4 text-xl font-semibold',
    text: 'mt-3 leading-7 text-navy-100',
  },
  /** A statistic (home page): its figure large, under it the label and a short description. */
  statistic: {
    card: 'relative overflow-hidden rounded-2xl border border-navy-100 bg-white p-6 shadow-sm',
    title: 'mt-3 font-semibold leading-6 text-navy-900',
    text: 'mt-2 text-sm leading-6 text-navy-700',
  },
};

type Props = {
  look: keyof typeof LOOKS;
  /** The card's heading (an h3 under the band's h2). */
  title: string;
  /** The line under it; nothing when empty. */
  text: string | null;
  testId?: string;
  /** What leads the card, above its title: a number, an icon, a figure. */
  children: ReactNode;
};

/** One card of a band's grid (an item of its list): what leads it, its title and its text, in one of LOOKS. */
export function GridCard({ look, title, text, testId, children }: Props) {
  const classes = LOOKS[look];
  return (
    <li className={classes.card} data-testid={testId}>
      {children}
      <CmsText as="h3" text={title} className={classes.title} />
      <CmsText text={text} className={classes.text} />
    </li>
  );
}
