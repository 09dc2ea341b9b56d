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

/** The summary's list of refused fields, each a link to its field (`#id`), with the field's message. */
export function FieldErrorLinks<F extends string>({
  fields,
  idOf,
  message,
}: {
  fields: readonly F[];
  idOf: (field: F) => string;
  message: (field: F) => ReactNode;
}) {
  if (fields.length === 0) return null;
  return (
    <ul className="mt-2 list-disc space-y-1 ps-5">
      {fields.map((f) => (
        <li key={f}>
          <a href={`#${idOf(f)}`} className="underline underline-offset-2">
            {message(f)}
          </a>
        </li>
      ))}
    </ul>
  );
}
