/** The few interface icons the site uses, drawn inline (decorative: aria-hidden). */
export type IconProps = { className?: string };

/** The props every line icon shares: 24-unit grid, stroke in the text colour, hidden from assistive tech. */
export const iconProps = (className: string | undefined, defaults: { size?: string; strokeWidth?: number } = {}) => ({
  className: className ?? defaults.size ?? 'size-5',
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: defaults.strokeWidth ?? 2,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
  'aria-hidden': true,
  focusable: false,
});
const base = (className?: string) => iconProps(className);

export const MenuIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><path d="M4 7h16M4 12h16M4 17h16" /></svg>
);
export const CloseIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><path d="M6 6l12 12M18 6L6 18" /></svg>
);
export const GlobeIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><circle cx="12" cy="12" r="9" /><path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" /></svg>
);
export const ChevronDownIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><path d="M6 9l6 6 6-6" /></svg>
);
export const CheckIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><path d="M5 12l5 5L20 7" /></svg>
);
/** An arrow pointing "forward" in reading order: flips in right-to-left pages. */
export const ArrowForwardIcon = ({ className }: IconProps) => (
  <svg {...base(`${className ?? 'size-5'} rtl:-scale-x-100`)}><path d="M5 12h14M13 6l6 6-6 6" /></svg>
);
export const MailIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><rect x="3" y="5" width="18" height="14" rx="2" /><path d="M3 7l9 6 9-6" /></svg>
);
export const PhoneIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2" /></svg>
);
export const PinIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><path d="M12 21s-7-6.2-7-11a7 7 0 0 1 14 0c0 4.8-7 11-7 11z" /><circle cx="12" cy="10" r="2.5" /></svg>
);
export const ClockIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><circle cx="12" cy="12" r="9" /><path d="M12 7v5l3 2" /></svg>
);
