// The client modules that more than one page uses, for the route modules (and the shell's lazy
// widgets) to import from here rather than from their own files (eslint.config.js enforces it).
// esbuild puts each module into a chunk by the set of entries (routes, lazy widgets, the client
// entry) that reach it, so modules that different pages use end up in many small chunks, one
// request each. Every entry that reaches one of these reaches all of them through this file,
// so they make one chunk. The re-exports are named: esbuild resolves a name imported through
// `export *` straight to its module and leaves this file out, which would undo all of it.
// Only modules the browser runs belong here: nothing `.server`, nothing that loads a lazy
// widget (that would be an import cycle), nothing only the portal uses. The client entry reaches
// this file, so all of it is in every page's first scripts: what the shell (root, locale layout,
// header, footer, error pages, its lazy widgets) and nearly every page use. Blocks only content
// pages use go in ./content-kit.ts (ADR 0024, "Less in the kit").
export {
  defaultLocale,
  defaultNS,
  dir,
  i18nextOptions,
  intlLocale,
  type Locale,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE,
  localeCookieValue,
  localeFromPath,
  localeNames,
  locales,
  localizePath,
  namespaces,
  placeComma,
  placeName,
  requestLocale,
  stripLocale,
  twinPath,
} from './i18n';
export {
  type Analytics,
  analytics,
  APP_INITIALIZED_DELAY_MS,
  browserDataLayer,
  type ConversionInput,
  createAnalytics,
  type DataLayerEntry,
  type EcommerceData,
  type EcommerceItem,
  isBookingConfirmationPath,
  isHomePath,
  isOutboundLink,
  NAMED_EVENTS,
  type NamedEvent,
  pageViewEntry,
  type PageViewInput,
  STARTUP_PAGE_TITLE,
  STARTUP_PAGE_VIEW_DELAY_MS,
  type TagManagerSnippet,
  type Timer,
} from './lib/analytics';
export { EARLY_TAP, localeCookie, openedEarly, releaseEarlyTap } from './lib/early-taps';
export { ENGLISH_TEXT, latinTextLang, portableTextLang, useFallbackLang } from './lib/content-lang';
export { allDeferredLoaded, deferred, HydrateLater, useMountedOnDemand } from './lib/deferred';
export { keyFileUrl, loadLanguage, startKeyFiles } from './lib/i18n-backend';
export { type Translation, TranslationsContext, useDir, useLocale, useLocalizePath, useT } from './lib/locale';
export { isolateCodes, isolateNumberRuns } from './lib/digits';
export { errorTitle, landingMeta, layoutFromMatches, pageMeta } from './lib/meta';
export { HeadScriptsContext, type RootData, useRootData } from './lib/root-data';
export { isShellRoute, type ShellData, useShell } from './lib/shell';
export { CmsText } from './components/CmsText';
export {
  CalendarIcon,
  ChatIcon,
  CheckIcon,
  ChevronDownIcon,
  ClockIcon,
  CloseIcon,
  GlobeIcon,
  type IconProps,
  iconProps,
  MailIcon,
  MenuIcon,
  PhoneIcon,
  PinIcon,
  UserIcon,
} from './components/icons';
export { type ImageAttributes, Img } from './components/Img';
export { JsonLd, jsonLdString } from './components/JsonLd';
export { PillLink, pillLinkClass } from './components/PillLink';
export { NotFound, NotFoundPage, notFoundMeta, RouteErrorBoundary } from './components/RouteError';
export { TaggedText } from './components/TaggedText';
export {
  BOOKING_PATH,
  BookingContext,
  type BookingSource,
  trackBookingOpen,
  useBooking,
} from './features/booking/booking-context';
export { isPlainClick } from './features/booking/plain-click';
export { whatsappUrl } from './features/chat/whatsapp-url';
export {
  CONSENT_ACTION_FIELD,
  CONSENT_BANNER_ID,
  CONSENT_JS_FIELD,
  CONSENT_RETURN_FIELD,
  CONSENT_SAVED_ANCHOR,
  type ConsentChoice,
  currentConsent,
} from './features/consent/consent';
