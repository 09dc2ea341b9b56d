import { forwardRef, type ReactNode } from 'react';

/**
 * A refused form's summary: a red alert box that takes focus (tabIndex -1), so the page can move
 * keyboard and screen-reader users to it after the post. Shared by the public forms and the portal's.
 */
export const ErrorAlert = forwardRef<HTMLDivElement, { testId: string; className?: string; children: ReactNode }>(
  function ErrorAlert({ testId, className, children }, ref) {
    return (
      <div
        ref={ref}
        tabIndex={-1}
        role="alert"
        data-testid={testId}
        className={`rounded-lg border border-red-300 bg-red-50 p-4 text-red-800 outline-none ${className ?? ''}`}
      >
        {children}
      </div>
    );
  },
);
