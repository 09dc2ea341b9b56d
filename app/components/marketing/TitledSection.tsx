import { useId, type ReactNode } from 'react';

/** The heading's look by role: a card's title unless told. */
export const titleStyle = {
  /** A card or a block of a page (the default). */
  card: 'text-xl font-bold text-navy-900',
  /** The main panel of a page: the current plan, a checkout's outcome, a diagnostics table. */
  panel: 'text-2xl font-bold text-navy-900',
};

type Props = {
  /** The heading's id, which names the landmark (aria-labelledby); a generated one unless a link needs it. */
  id?: string;
  title: ReactNode;
  titleClassName?: string;
  className?: string;
  /** `nav` for a list of links within the page; `section` otherwise. */
  as?: 'section' | 'nav';
  testId?: string;
  children: ReactNode;
};

/** A landmark named by its own h2: `<section aria-labelledby={id}><h2 id={id}>…</h2>…</section>`. */
export function TitledSection({
  id,
  title,
  titleClassName = titleStyle.card,
  className,
  as: Tag = 'section',
  testId,
  children,
}: Props) {
  const generatedId = useId();
  const headingId = id ?? generatedId;
  return (
    <Tag aria-labelledby={headingId} className={className} data-testid={testId}>
      <h2 id={headingId} className={titleClassName}>
        {title}
      </h2>
      {children}
    </Tag>
  );
}
