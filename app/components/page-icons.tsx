/**
 * The pages' icons (arrows along the reading direction, the service and illustration icons of the
 * services page tiles and testimonials), drawn as the shell's in icons.tsx: the service and
 * illustration icons use a finer 1.75 stroke and size-6. Arrows and chevrons that point along the
 * reading direction mirror in right-to-left pages. Content pages take them from ~/content-kit.
 */
import { drawIcon, type IconProps } from './icons';

const line = drawIcon({});
const fineLine = drawIcon({ size: 'size-6', look: 'icon icon-fine' });

/** An arrow pointing "forward" in reading order: flips in right-to-left pages. */
export const ArrowForwardIcon = line(<path d="M5 12h14M13 6l6 6-6 6" />, { mirror: 'size-5' });
export const FolderIcon = line(<path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />);
export const BriefcaseIcon = line(
  <>
    <rect x="3" y="7" width="18" height="13" rx="2" />
    <path d="M9 7V5a2 2 0 0 1 2-2h2a2 2 0 0 1 2 2v2M3 13h18" />
  </>,
);
export const TrendUpIcon = line(<path d="M3 17l6-6 4 4 8-8M15 7h6v6" />);
/** An arrow pointing back in reading order: flips in right-to-left pages. */
export const ArrowBackIcon = line(<path d="M19 12H5M11 6l-6 6 6 6" />, { mirror: 'size-5' });
export const ChevronForwardIcon = line(<path d="M9 6l6 6-6 6" />, { mirror: 'size-4' });

// Service and illustration icons
export const CompassIcon = fineLine(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M15.5 8.5l-2 5-5 2 2-5z" />
  </>,
);
export const BuildingIcon = fineLine(
  <>
    <path d="M4 21V5a1 1 0 0 1 1-1h9a1 1 0 0 1 1 1v16M15 9h4a1 1 0 0 1 1 1v11M3 21h18" />
    <path d="M8 8h3M8 12h3M8 16h3" />
  </>,
);
export const RocketIcon = fineLine(
  <>
    <path d="M14 4c3-1 5.5-1 6-.5.5.5.5 3-.5 6l-6 6-5-5z" />
    <path d="M8.5 10.5L5 10l-2 2 4 1M13.5 15.5L14 19l-2 2-1-4" />
    <circle cx="15.5" cy="8.5" r="1.5" />
    <path d="M6 16c-1.5.5-2 2-2 4 2 0 3.5-.5 4-2" />
  </>,
);
export const CogIcon = fineLine(
  <>
    <circle cx="12" cy="12" r="3" />
    <path d="M12 2.5v3M12 18.5v3M2.5 12h3M18.5 12h3M5.3 5.3l2.1 2.1M16.6 16.6l2.1 2.1M5.3 18.7l2.1-2.1M16.6 7.4l2.1-2.1" />
    <circle cx="12" cy="12" r="6.5" />
  </>,
);
export const UsersIcon = fineLine(
  <>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20c.5-3.5 3-5.5 6.5-5.5s6 2 6.5 5.5" />
    <path d="M16 4.8a3.5 3.5 0 0 1 0 6.4M18 14.8c2 .7 3.2 2.5 3.5 5.2" />
  </>,
);
export const ChartIcon = fineLine(
  <>
    <path d="M4 4v16h16" />
    <path d="M8 16v-4M12 16V9M16 16v-6M20 7l-4-3-4 4-4-2" />
  </>,
);
/** An arrow out of a box, for links that open another site; mirrors in right-to-left pages. */
export const ExternalIcon = fineLine(
  <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />,
  { mirror: 'size-4' },
);
export const QuoteIcon = fineLine(
  <path d="M10 7H6.5A2.5 2.5 0 0 0 4 9.5V13a2 2 0 0 0 2 2h2.5c0 1.8-1 3-3 3.5V20c3.5-.5 5.5-2.8 5.5-6.5V8a1 1 0 0 0-1-1zm10 0h-3.5A2.5 2.5 0 0 0 14 9.5V13a2 2 0 0 0 2 2h2.5c0 1.8-1 3-3 3.5V20c3.5-.5 5.5-2.8 5.5-6.5V8a1 1 0 0 0-1-1z" />,
  { filled: true },
);
export const SparkIcon = fineLine(
  <path d="M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5L18 18M6 18l2.5-2.5M15.5 8.5L18 6" />,
);

const serviceIcons: Record<string, (p: IconProps) => JSX.Element> = {
  compass: CompassIcon,
  building: BuildingIcon,
  rocket: RocketIcon,
  cog: CogIcon,
  users: UsersIcon,
  chart: ChartIcon,
};

/** A service's icon by its CMS name (compass, building, rocket, cog, users, chart). */
export function ServiceIcon({ name, className }: { name: string; className?: string }) {
  const Icon = serviceIcons[name] ?? CompassIcon;
  return <Icon className={className} />;
}
