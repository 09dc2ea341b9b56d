// The client modules that more than one page uses, for the route modules (and the shell's lazy
// widgets) to import from here rather than from their own files (eslint.config.js enforces it).
// esbuild puts each module into a chunk by the set of entries (routes, lazy widgets, the client
// entry) that reach it, so modules that different pages use end up in many small chunks, one
// request each. Every entry that reaches one of these reaches all of them through this file,
// so they make one chunk. Only modules the browser runs belong here: nothing `.server`, nothing
// that loads a lazy widget (that would be an import cycle), nothing only the portal uses.
export * from './i18n';
export * from './lib/analytics';
export * from './lib/content-lang';
export * from './lib/deferred';
export * from './lib/image';
export * from './lib/locale';
export * from './lib/meta';
export * from './lib/root-data';
export * from './lib/shell';
export * from './components/CmsText';
export * from './components/icons';
export * from './components/JsonLd';
export * from './components/PillLink';
export * from './components/RouteError';
export * from './components/SanityImage';
export * from './components/TaggedText';
export * from './components/marketing/Bidi';
export * from './components/marketing/CheckList';
export * from './components/marketing/CtaBand';
export * from './components/marketing/GridCard';
export * from './components/marketing/PageBand';
export * from './components/marketing/PageHeading';
export * from './components/marketing/ServiceCards';
export * from './components/marketing/TitledSection';
export * from './components/marketing/ui';
export * from './features/booking/BookConsultationButton';
export * from './features/booking/booking-context';
export * from './features/booking/BookingWhatsAppLink';
export * from './features/booking/frame-url';
export * from './features/booking/plain-click';
export * from './features/booking/SchedulingFrame';
export * from './features/chat/whatsapp-url';
export * from './features/forms/ErrorAlert';
export * from './features/forms/NewsletterForm';
// The client entry and the shell's language switch use i18next: from here its code joins this chunk.
export { default as i18next } from 'i18next';
