import { Link, NavLink, useLocation } from '@remix-run/react';
import { useEffect, useId, useRef, useState } from 'react';
import { deferred } from '~/lib/deferred';
import { EARLY_TAP, openedEarly, releaseEarlyTap } from '~/lib/early-taps';
import { useLocalizePath, useT } from '~/lib/locale';
import type { Shell } from '~/sanity/queries/shell';
import { CmsText } from './CmsText';
import { hasSignedInHint } from '~/portal/signed-in-hint';
import { CloseIcon, MenuIcon, UserIcon } from './icons';
import type { ImageAttributes } from './Img';
import { Logo } from './Logo';

/** The language menu (Radix's dropdown, with its positioning code) is not among the first scripts. */
const LanguageSwitcher = deferred('language', () => import('./LanguageSwitcher').then((m) => m.LanguageSwitcher));

export const scrollToTop = () => window.scrollTo({ top: 0, left: 0, behavior: 'auto' });

/** The desktop bar's link look, without its display (the portal link is hidden below md). */
const linkLook = ({ isActive }: { isActive: boolean }) =>
  `min-h-11 items-center rounded-full px-2 text-[0.95rem] lg:px-3 font-medium transition-colors ${
    isActive ? 'bg-navy-50 text-navy-900' : 'text-navy-700 hover:bg-navy-50 hover:text-navy-900'
  }`;

const linkClass = (state: { isActive: boolean }) => `inline-flex ${linkLook(state)}`;

const menuLinkClass = ({ isActive }: { isActive: boolean }) =>
  `flex min-h-12 items-center rounded-lg px-3 text-base font-medium ${isActive ? 'bg-navy-50 text-navy-900' : 'text-navy-700'}`;

/** The main navigation as list items, for the desktop bar and the phone menu (each with its own look). */
function NavItems({
  links,
  className,
  prefetch,
}: {
  links: Shell['settings']['headerNavigation'];
  className: (state: { isActive: boolean }) => string;
  prefetch?: 'intent';
}) {
  const localize = useLocalizePath();
  return links.map((link) => (
    <li key={link._key}>
      <NavLink
        to={localize(link.href)}
        end={link.href === '/'}
        prefetch={prefetch}
        onClick={scrollToTop}
        className={className}
      >
        <CmsText as="span" text={link.label} />
      </NavLink>
    </li>
  ));
}

/**
 * Whether this browser holds the signed-in hint (app/portal/signed-in-hint.ts). False on the
 * server and in the first render, so public pages stay the same bytes for every visitor and
 * hydrate without a mismatch; read after hydration and again after every navigation (a sign-in
 * or sign-out ends in one). A label only: the portal checks the session itself.
 */
export function useSignedInHint(): boolean {
  const { key } = useLocation();
  const [signedIn, setSignedIn] = useState(false);
  useEffect(() => setSignedIn(hasSignedInHint(document.cookie)), [key]);
  return signedIn;
}

/**
 * The way into the client portal (/account, /ar/account): "Client Login", or "My account" once
 * the hint says this browser is signed in. Without JavaScript it reads Client Login and /account
 * still shows a signed-in client their account.
 */
export function ClientLoginLink({
  className,
  labelClassName,
  testId,
}: {
  className: string | ((state: { isActive: boolean }) => string);
  labelClassName?: string;
  testId: string;
}) {
  const { t } = useT();
  const localize = useLocalizePath();
  const signedIn = useSignedInHint();
  return (
    <NavLink
      to={localize('/account')}
      onClick={scrollToTop}
      className={className}
      data-testid={testId}
      data-signed-in={signedIn ? 'true' : 'false'}
    >
      <UserIcon className="size-5 shrink-0" />
      <span className={labelClassName}>{signedIn ? t('nav.myAccount') : t('nav.clientLogin')}</span>
    </NavLink>
  );
}

/** Site header: 160px high on desktop, 96px on phones (breakpoint 768px). */
export function Header({ settings, logo }: { settings: Shell['settings']; logo: ImageAttributes | null }) {
  const { t } = useT();
  const localize = useLocalizePath();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const menuRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  // A route change closes the mobile menu.
  useEffect(() => setOpen(false), [location.pathname, location.search, location.hash]);

  // Hydrated: the button is React's from now on, and a menu the page's early script opened on a
  // tap before this (app/lib/early-taps.ts) stays open, now as this component's state.
  useEffect(() => {
    if (openedEarly(menuRef.current)) setOpen(true);
    releaseEarlyTap(toggleRef.current);
  }, []);

  // Escape closes the menu; if focus was in it (now hidden), it goes back to the toggle, not to <body>.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      const focusInMenu = menuRef.current?.contains(document.activeElement) ?? false;
      setOpen(false);
      if (focusInMenu) toggleRef.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  // Focus moving on past the menu (Tab after its last link) closes it: it would otherwise stay
  // open over the page where focus now is. Back to the toggle keeps it open; so does focus leaving
  // the window (no relatedTarget).
  const onMenuBlur = (e: React.FocusEvent<HTMLDivElement>) => {
    const next = e.relatedTarget;
    if (!(next instanceof Node)) return;
    if (e.currentTarget.contains(next) || toggleRef.current?.contains(next)) return;
    setOpen(false);
  };

  const links = settings.headerNavigation;
  return (
    <header
      data-testid="site-header"
      className="sticky top-0 z-40 h-24 border-b border-navy-100 bg-white/95 backdrop-blur md:h-40"
    >
      <div className="mx-auto flex h-full max-w-7xl items-center justify-between gap-3 px-4 md:px-8">
        <Link
          to={localize('/')}
          onClick={scrollToTop}
          prefetch="intent"
          className="shrink-0 rounded-lg"
          data-testid="logo-link"
        >
          <Logo brandName={settings.brandName} image={logo} placement="header" />
        </Link>

        <nav aria-label={t('nav.main')} className="hidden md:block">
          <ul className="flex items-center gap-1 lg:gap-2">
            <NavItems links={links} prefetch="intent" className={linkClass} />
          </ul>
        </nav>

        <div className="flex items-center gap-2">
          <LanguageSwitcher />
          <ClientLoginLink
            testId="client-login-desktop"
            className={(state) => `hidden gap-2 md:inline-flex ${linkLook(state)}`}
            labelClassName="sr-only xl:not-sr-only"
          />
          {/* From lg only: between md and lg the full navigation, the language menu and the
              portal link fill the row (the hero and the floating button carry the call to action). */}
          <Link
            to={localize('/services')}
            onClick={scrollToTop}
            prefetch="intent"
            data-testid="get-started-desktop"
            className="hidden min-h-11 items-center rounded-full bg-gold-500 px-5 font-semibold text-navy-950 shadow-sm hover:bg-gold-400 lg:inline-flex"
          >
            {t('nav.getStarted')}
          </Link>
          <button
            ref={toggleRef}
            type="button"
            className="inline-flex size-11 items-center justify-center rounded-full text-navy-900 hover:bg-navy-50 md:hidden"
            aria-expanded={open}
            aria-controls={menuId}
            aria-label={open ? t('nav.closeMenu') : t('nav.openMenu')}
            data-testid="menu-toggle"
            {...{ [EARLY_TAP]: 'menu' }}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? <CloseIcon className="size-6" /> : <MenuIcon className="size-6" />}
          </button>
        </div>
      </div>

      <div
        ref={menuRef}
        id={menuId}
        data-testid="mobile-menu"
        onBlur={onMenuBlur}
        hidden={!open}
        className="absolute inset-x-0 top-full max-h-[80vh] overflow-y-auto border-b border-navy-100 bg-white shadow-lg md:hidden"
      >
        <nav aria-label={t('nav.main')}>
          <ul className="flex flex-col px-4 py-3">
            <NavItems links={links} className={menuLinkClass} />
            <li className="pt-2">
              <Link
                to={localize('/services')}
                onClick={scrollToTop}
                data-testid="get-started-mobile"
                className="flex min-h-12 items-center justify-center rounded-full bg-gold-500 px-5 font-semibold text-navy-950"
              >
                {t('nav.getStarted')}
              </Link>
            </li>
          </ul>
        </nav>
        {/* Like the desktop bar's, the way into the portal sits beside the main navigation, not in it. */}
        <div className="mx-4 border-t border-navy-100 py-3">
          <ClientLoginLink testId="client-login-mobile" className={(state) => `${menuLinkClass(state)} gap-3`} />
        </div>
      </div>
    </header>
  );
}
