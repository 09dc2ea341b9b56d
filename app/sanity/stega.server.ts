import type { FilterDefault } from '@sanity/client';

/**
 * Which strings of a preview (drafts) result carry stega: the invisible edit links that let
 * the Presentation tool's overlays find the field a text came from.
 *
 * Only localized display text is encoded: a value whose source path ends in a language
 * field (`title.en`, `hero.subtitle.ar`, `headerNavigation[_key].label.en`), i.e. a field of
 * a localeString or localeText object. Everything the site uses as an identifier is
 * therefore left alone: slugs, keys, anchors, _ids, icon and colour enums, hrefs, URLs,
 * phone numbers, e-mail addresses, dates. On top of that Sanity's own default filter still
 * applies (no SEO/meta fields, nothing that looks like a URL or a date), and blank text is
 * never encoded (an empty Arabic field must stay empty: "translation missing" checks it).
 *
 * Portable Text bodies (localeBlockContent) are not encoded: their spans' paths end in
 * `text`, and the legal page and read-time estimate derive structure from them.
 */
export const LOCALE_FIELDS: ReadonlySet<string> = new Set(['en', 'ar']);

/**
 * Localized fields whose text the site compares, searches or puts into a URL, so an
 * encoded value would change what the page does (each reason is in app/):
 * - `highlight`: looked up inside the hero headline (lib/highlight.ts splitHighlight);
 * - `businessesLaunched`, `claims`: compared with each other to drop a duplicate claim (pages/home.tsx);
 * - `brandName`: looked up inside page titles (lib/seo.ts);
 * - `whatsappMessage`, `bookingWhatsappMessage`: become the text of a wa.me link;
 * - `city`, `country`: an office's country is shown only when it differs from its city
 *   (components/Footer.tsx: "Singapore", not "Singapore, Singapore").
 */
export const UNENCODED_FIELDS: ReadonlySet<string> = new Set([
  'highlight',
  'businessesLaunched',
  'claims',
  'brandName',
  'whatsappMessage',
  'bookingWhatsappMessage',
  'city',
  'country',
]);

export const stegaFilter: FilterDefault = (props) => {
  const { sourcePath, value } = props;
  const last = sourcePath.at(-1);
  if (typeof last !== 'string' || !LOCALE_FIELDS.has(last)) return false;
  if (value.trim() === '') return false;
  if (sourcePath.some((segment) => typeof segment === 'string' && UNENCODED_FIELDS.has(segment))) return false;
  return props.filterDefault(props);
};
