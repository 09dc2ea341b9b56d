import { Link } from '@remix-run/react';
import { CmsText } from '~/components/CmsText';
import { ArrowForwardIcon } from '~/components/page-icons';
import type { ImageLayoutName } from '~/components/image-layouts';
import { SanityImage } from '~/components/SanityImage';
import type { SanityImage as Img } from '~/sanity/groq';

/** The frames of the insights cards: a white tile in a grid, or the wide navy card of the featured article. */
const FRAMES = {
  tile: 'group relative flex flex-col overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm transition hover:shadow-md focus-within:shadow-md',
  featured: 'group relative grid overflow-hidden rounded-3xl bg-navy-900 text-white shadow-lg md:grid-cols-2',
};

/**
 * An article's or a case study's card: the frame, and the cover image (when there is one) in the
 * given layout above the text (beside it in the featured frame). The text's title is a CardTitle.
 */
export function InsightCard({
  testId,
  frame = 'tile',
  cover,
  layout,
  priority,
  children,
}: {
  testId: string;
  frame?: keyof typeof FRAMES;
  cover: Img | null;
  layout: ImageLayoutName;
  priority?: boolean;
  children: React.ReactNode;
}) {
  return (
    <article data-testid={testId} className={FRAMES[frame]}>
      {cover && <SanityImage image={cover} layout={layout} priority={priority} />}
      {children}
    </article>
  );
}

/**
 * A card's heading, whose link is stretched over the whole card (InsightCard is `relative` and a
 * `group`), so the card is one link and one tab stop.
 */
export function CardTitle({
  as,
  to,
  title,
  className,
  onDark,
}: {
  as: 'h2' | 'h3';
  to: string;
  title: string;
  className: string;
  /** On the navy frame: a gold underline that shows on it. */
  onDark?: boolean;
}) {
  return (
    <CmsText as={as} text={title} className={className}>
      <Link
        to={to}
        prefetch="intent"
        className={`rounded after:absolute after:inset-0 after:content-[''] group-hover:underline ${
          onDark ? 'decoration-gold-400' : 'decoration-gold-500'
        } underline-offset-4`}
      >
        {title}
      </Link>
    </CmsText>
  );
}

/**
 * A card's "Read …" cue with an arrow, at the end of its text: for the eye only (hidden from
 * assistive technology), as the card's one link is its title.
 */
export function CardCue({ label, className, onDark }: { label: string; className: string; onDark?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={`${className} inline-flex items-center gap-2 font-semibold ${onDark ? 'text-gold-300' : 'text-navy-900'}`}
    >
      {label}
      <ArrowForwardIcon className={onDark ? 'size-4' : 'size-4 text-gold-700'} />
    </span>
  );
}
