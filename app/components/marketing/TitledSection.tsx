import type { ReactNode } from 'react';

type Props = {
  /** The heading's id, which names the landmark (aria-labelledby). */
  id: string;
  title: ReactNode;
  titleClassName: string;
  className?: string;
  /** `nav` for a list of links within the page; `section` otherwise. */
  as?: 'section' | 'nav';
  testId?: string;
  children: ReactNode;
};

/** A landmark named by its own h2: `<section aria-labelledby={id}><h2 id={id}>…</h2>…</section>`. */
export function TitledSection({ id, title, titleClassName, className, as: Tag = 'section', testId, children }: Props) {
  return (
    <Tag aria-labelledby={id} className={className} data-testid={testId}>
      <h2 id={id} className={titleClassName}>
        {title}
      </h2>
      {children}
    </Tag>
  );
}
