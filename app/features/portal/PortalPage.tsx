import type { ReactNode } from 'react';
import { narrowContainer, pageHeader, pageTitle, portalContainer } from './ui';

type Props = {
  title: ReactNode;
  /** The sign-in pages use the narrow column; the account pages the wide one. */
  width?: 'narrow' | 'wide';
  /** What stands under the title (an intro line). */
  children?: ReactNode;
};

/** The band at the top of a portal page: its h1 and an optional intro. */
export function PageHeader({ title, width = 'wide', children }: Props) {
  return (
    <header className={pageHeader}>
      <div className={width === 'narrow' ? narrowContainer : portalContainer}>
        <h1 className={pageTitle}>{title}</h1>
        {children}
      </div>
    </header>
  );
}
