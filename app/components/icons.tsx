/**
 * The icons of the page shell (header, footer, language menu, floating buttons, dialogs, toasts):
 * inline SVG on a 24-unit grid, stroke in the text colour, decorative (aria-hidden). Interface
 * icons use a 2-unit stroke and size-5 unless told. The pages' own icons (arrows, service and
 * illustration icons) are drawn the same way in page-icons.tsx: kept apart so that they are not in
 * every page's first scripts (app/content-kit.ts, ADR 0024).
 */
export type IconProps = { className?: string };

/**
 * The props every line icon shares: 24-unit grid, hidden from assistive tech. How it is drawn
 * (no fill, stroke in the text colour, its width, round caps and joins) comes from the `icon`
 * classes in tailwind.css rather than from six presentation attributes on each of the fifty-odd
 * icons a page draws: the same picture, less HTML and less work per server render.
 */
export const iconProps = (className: string | undefined, defaults: { size?: string; look?: string } = {}) => ({
  className: `${defaults.look ?? 'icon'} ${className ?? defaults.size ?? 'size-5'}`,
  viewBox: '0 0 24 24',
  'aria-hidden': true,
});

type IconOptions = {
  /** Flips in right-to-left pages (arrows along the reading direction); the value is the default size. */
  mirror?: string;
  /** Filled in the text colour instead of stroked. */
  filled?: boolean;
};

/** An icon component drawing `shapes` (its paths, circles, rects) on the shared 24-unit grid. */
export const drawIcon =
  (defaults: { size?: string; look?: string }) =>
  (shapes: JSX.Element, { mirror, filled }: IconOptions = {}) => {
    const look = filled ? `${defaults.look ?? 'icon'} icon-filled` : defaults.look;
    return ({ className }: IconProps) => (
      <svg {...iconProps(mirror ? `${className ?? mirror} rtl:-scale-x-100` : className, { ...defaults, look })}>
        {shapes}
      </svg>
    );
  };
const line = drawIcon({});

// Interface icons
export const MenuIcon = line(<path d="M4 7h16M4 12h16M4 17h16" />);
export const CloseIcon = line(<path d="M6 6l12 12M18 6L6 18" />);
export const GlobeIcon = line(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
  </>,
);
export const ChevronDownIcon = line(<path d="M6 9l6 6 6-6" />);
export const CheckIcon = line(<path d="M5 12l5 5L20 7" />);
export const MailIcon = line(
  <>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M3 7l9 6 9-6" />
  </>,
);
export const PhoneIcon = line(
  <path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2" />,
);
export const PinIcon = line(
  <>
    <path d="M12 21s-7-6.2-7-11a7 7 0 0 1 14 0c0 4.8-7 11-7 11z" />
    <circle cx="12" cy="10" r="2.5" />
  </>,
);
export const ClockIcon = line(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </>,
);
export const CalendarIcon = line(
  <>
    <rect x="3" y="5" width="18" height="16" rx="2" />
    <path d="M3 10h18M8 3v4M16 3v4" />
  </>,
);
export const UserIcon = line(
  <>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
  </>,
);
export const ChatIcon = line(
  <>
    <path d="M3 21l1.7-4.6A8.5 8.5 0 1 1 8 19.6L3 21z" />
    <path d="M9 10c0 2.5 2.5 5 5 5l1.2-1.2-1.8-1-1 .8c-.8-.4-1.6-1.2-2-2l.8-1-1-1.8L9 10z" />
  </>,
);
