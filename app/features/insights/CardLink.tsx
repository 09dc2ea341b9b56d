import { Link } from '@remix-run/react';

/**
 * A card's title link, stretched over the whole card (the card needs `relative` and `group`),
 * so the card is one link and one tab stop.
 */
export function CardLink({ to, onDark, children }: { to: string; onDark?: boolean; children: React.ReactNode }) {
  return (
    <Link
      to={to}
      prefetch="intent"
      className={`rounded after:absolute after:inset-0 after:content-[''] group-hover:underline ${
        onDark ? 'decoration-gold-400' : 'decoration-gold-500'
      } underline-offset-4`}
    >
      {children}
    </Link>
  );
}
