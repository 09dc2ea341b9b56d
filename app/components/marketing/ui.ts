/** Shared class names for the marketing pages: buttons, containers, section headings. */
// md:px-page keeps the floating buttons clear of the content (tailwind.css, --spacing-page).
export const container = 'mx-auto w-full max-w-7xl px-4 md:px-page';

const buttonBase =
  'inline-flex min-h-12 items-center justify-center gap-2 rounded-full px-6 text-base font-semibold transition-colors focus-visible:outline-offset-2';
export const button = {
  /** Navy on light backgrounds. */
  primary: `${buttonBase} bg-navy-900 text-white hover:bg-navy-800`,
  /** Gold with navy text: the call to action, on light or dark backgrounds. */
  gold: `${buttonBase} bg-gold-500 text-navy-950 shadow-sm hover:bg-gold-400`,
  /** Outlined, on light backgrounds. */
  outline: `${buttonBase} border border-navy-200 bg-white text-navy-900 hover:border-navy-500 hover:bg-navy-50`,
  /** Outlined, on navy backgrounds. */
  outlineLight: `${buttonBase} border border-white/40 text-white hover:bg-white/10`,
};

export const eyebrow = 'text-sm font-semibold uppercase tracking-wider text-gold-700';
export const sectionTitle = 'text-3xl font-bold tracking-tight text-navy-900 md:text-4xl rtl:leading-[1.4]';
export const lead = 'text-lg leading-8 text-navy-700';

/** Tile and accent colours for a service's CMS colour name (gold, teal, navy, emerald, rose, indigo). */
export const serviceColor: Record<string, { tile: string; bar: string }> = {
  gold: { tile: 'bg-sand-100 text-gold-700', bar: 'bg-gold-500' },
  teal: { tile: 'bg-teal-50 text-teal-700', bar: 'bg-teal-600' },
  navy: { tile: 'bg-navy-50 text-navy-700', bar: 'bg-navy-700' },
  emerald: { tile: 'bg-emerald-50 text-emerald-700', bar: 'bg-emerald-600' },
  rose: { tile: 'bg-rose-50 text-rose-700', bar: 'bg-rose-600' },
  indigo: { tile: 'bg-indigo-50 text-indigo-700', bar: 'bg-indigo-600' },
};
export const colorOf = (name: string) => serviceColor[name] ?? serviceColor.navy;
