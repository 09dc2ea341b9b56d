import { Link, type LinkProps } from '@remix-run/react';

/** The rounded call-to-action link styles shared by the error screens and the booking confirmation. */
export const pillLinkClass = {
  primary: 'inline-flex min-h-12 items-center rounded-full bg-navy-900 px-6 font-semibold text-white hover:bg-navy-800',
  secondary:
    'inline-flex min-h-12 items-center rounded-full border border-navy-200 px-6 font-semibold text-navy-900 hover:bg-navy-50',
} as const;

/** A pill-shaped in-app link; `className` adds to the variant's classes (for example layout in a column). */
export function PillLink({
  variant = 'primary',
  className,
  ...props
}: LinkProps & { variant?: keyof typeof pillLinkClass }) {
  return <Link {...props} className={className ? `${pillLinkClass[variant]} ${className}` : pillLinkClass[variant]} />;
}
