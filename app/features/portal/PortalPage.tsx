import type { ReactNode } from 'react';
import { pageHeader, pageTitle, portalContainer } from './ui';

type Width = keyof typeof portalContainer;

/** The band at the top of a portal page: its h1 and what stands under it. */
export function PageHeader({
  title,
  width = 'wide',
  children,
}: {
  title: ReactNode;
  width?: Width;
  children?: ReactNode;
}) {
  return (
    <header className={pageHeader}>
      <div className={portalContainer[width]}>
        <h1 className={pageTitle}>{title}</h1>
        {children}
      </div>
    </header>
  );
}

type Props = {
  testId: string;
  title: ReactNode;
  /** The line under the title. */
  intro?: ReactNode;
  /** The sign-in pages use the narrow column; the account pages the wide one. */
  width?: Width;
  children: ReactNode;
};

/** A portal page: the header band with its h1 and intro line, then the page's content in the same column. */
export function PortalPage({ testId, title, intro, width = 'wide', children }: Props) {
  return (
    <div data-testid={testId}>
      <PageHeader title={title} width={width}>
        {intro && <p className="mt-4 text-lg leading-8 text-navy-700">{intro}</p>}
      </PageHeader>
      <div className={`${portalContainer[width]} pb-16 md:pb-24`}>{children}</div>
    </div>
  );
}
