import { card, cardTitle } from '~/features/portal/ui';

/** A portal card: a section named by its own heading, so screen readers list it as a region with that title. */
export function TitledCard({
  titleId,
  title,
  testId,
  className = card,
  titleClassName = cardTitle,
  children,
}: {
  titleId: string;
  title: string;
  testId?: string;
  className?: string;
  titleClassName?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={titleId} className={className} data-testid={testId}>
      <h2 id={titleId} className={titleClassName}>
        {title}
      </h2>
      {children}
    </section>
  );
}
