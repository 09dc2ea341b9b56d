/** Icons of the blog and case-study pages, drawn inline (decorative: aria-hidden). */
import { iconProps, type IconProps } from '~/components/icons';
const base = (className?: string) => iconProps(className);

export const CalendarIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><rect x="3" y="5" width="18" height="16" rx="2" /><path d="M3 10h18M8 3v4M16 3v4" /></svg>
);
export const TagIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><path d="M3 12V4a1 1 0 0 1 1-1h8l9 9-9 9z" /><circle cx="8" cy="8" r="1.5" /></svg>
);
export const FolderIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" /></svg>
);
export const UserIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><circle cx="12" cy="8" r="4" /><path d="M4 21a8 8 0 0 1 16 0" /></svg>
);
export const BuildingIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><path d="M4 21V5a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v16M16 9h2a2 2 0 0 1 2 2v10M3 21h18M8 7h4M8 11h4M8 15h4" /></svg>
);
export const BriefcaseIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><rect x="3" y="7" width="18" height="13" rx="2" /><path d="M9 7V5a2 2 0 0 1 2-2h2a2 2 0 0 1 2 2v2M3 13h18" /></svg>
);
export const TrendUpIcon = ({ className }: IconProps) => (
  <svg {...base(className)}><path d="M3 17l6-6 4 4 8-8M15 7h6v6" /></svg>
);
export const QuoteIcon = ({ className }: IconProps) => (
  <svg {...base(className)} fill="currentColor" stroke="none"><path d="M4 18v-5.5C4 8.4 6.2 6 10 5.5v2.7C8 8.7 7.2 10 7.1 12H10v6zm10 0v-5.5c0-4.1 2.2-6.5 6-7v2.7c-2 .5-2.8 1.8-2.9 3.8H20v6z" /></svg>
);
/** An arrow pointing back in reading order: flips in right-to-left pages. */
export const ArrowBackIcon = ({ className }: IconProps) => (
  <svg {...base(`${className ?? 'size-5'} rtl:-scale-x-100`)}><path d="M19 12H5M11 6l-6 6 6 6" /></svg>
);
export const ChevronForwardIcon = ({ className }: IconProps) => (
  <svg {...base(`${className ?? 'size-4'} rtl:-scale-x-100`)}><path d="M9 6l6 6-6 6" /></svg>
);
