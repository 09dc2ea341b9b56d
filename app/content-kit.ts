// The client modules that several content pages share but the page shell does not: the marketing
// blocks, the booking button, the forms' error summary and the pages' icons. Pages import them
// from here (eslint.config.js enforces it) for the reason app/kit.ts gives: every entry that
// reaches one of them reaches all of them, so they make one chunk. Unlike the kit, the client
// entry does not import this file, so the pages that need none of it (the 404, the legal pages)
// do not download it (ADR 0024, "Less in the kit"). Nothing the shell or its lazy widgets use
// belongs here: they would fetch this chunk on every page. Named re-exports only (app/kit.ts
// says why).
export {
  ArrowBackIcon,
  ArrowForwardIcon,
  BriefcaseIcon,
  BuildingIcon,
  ChartIcon,
  ChevronForwardIcon,
  CogIcon,
  CompassIcon,
  ExternalIcon,
  FolderIcon,
  QuoteIcon,
  RocketIcon,
  ServiceIcon,
  SparkIcon,
  TrendUpIcon,
  UsersIcon,
} from './components/page-icons';
export { Bidi } from './components/marketing/Bidi';
export { CheckList } from './components/marketing/CheckList';
export { CtaBand } from './components/marketing/CtaBand';
export { GridCard } from './components/marketing/GridCard';
export { PageBand } from './components/marketing/PageBand';
export { PageHeading } from './components/marketing/PageHeading';
export { ServiceCards } from './components/marketing/ServiceCards';
export { TitledSection, titleStyle } from './components/marketing/TitledSection';
export { button, colorOf, container, eyebrow, lead, sectionTitle, serviceColor } from './components/marketing/ui';
export { BookConsultationButton } from './features/booking/BookConsultationButton';
export { ErrorAlert, FieldErrorLinks } from './features/forms/ErrorAlert';
