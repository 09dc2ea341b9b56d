import { useId, type ReactNode } from 'react';
import { CmsText } from '~/components/CmsText';
import { container, sectionTitle } from './ui';

type Props = {
  /** The heading, which names the landmark (aria-labelledby). */
  title: string;
  /** The band's background and vertical padding. */
  className: string;
  /** The heading's look: the marketing section title unless told. */
  titleClassName?: string;
  testId?: string;
  children: ReactNode;
};

/**
 * A full-width band of a marketing page: a section named by its own h2, its content in the
 * page container. `<section aria-labelledby={id}><div class={container}><h2 id={id}>…</h2>…`, where
 * the id is generated (nothing links to a band's heading).
 */
export function PageBand({ title, className, titleClassName = sectionTitle, testId, children }: Props) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={className} data-testid={testId}>
      <div className={container}>
        <CmsText as="h2" text={title} id={id} className={titleClassName} />
        {children}
      </div>
    </section>
  );
}
