import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useLocation, useNavigate } from '@remix-run/react';
import { useEffect, useId, useRef, useState } from 'react';
import {
  CheckIcon,
  ChevronDownIcon,
  dir,
  EARLY_TAP,
  GlobeIcon,
  type Locale,
  localeCookie,
  localeNames,
  locales,
  openedEarly,
  releaseEarlyTap,
  twinPath,
  useLocale,
  useT,
} from '~/kit';

export function rememberLocale(locale: Locale) {
  document.cookie = localeCookie(locale);
}

/**
 * The "Language" dropdown: moves to the same page in the other language at once (a
 * client-side navigation, no reload) and remembers the choice in a cookie.
 */
export function LanguageSwitcher() {
  const locale = useLocale();
  const { t } = useT();
  const location = useLocation();
  const navigate = useNavigate();
  const trigger = useRef<HTMLButtonElement>(null);
  const earlyMenu = useRef<HTMLDivElement>(null);
  const earlyMenuId = useId();
  const [open, setOpen] = useState(false);
  // Until this has hydrated, the button is the page's early script's, and opens the static menu.
  const [early, setEarly] = useState(true);
  // A tap whose press came before this took over (the early script's then, not Radix's, which
  // opens on pointerdown) but whose click comes after: this answers it, or it would be lost.
  const pressSeen = useRef(false);

  // Hydrated: the button opens this menu from now on (before, the page's early script opened the
  // static one: app/lib/early-taps.ts), which takes the static menu's place, open if it was.
  useEffect(() => {
    if (openedEarly(earlyMenu.current)) setOpen(true);
    releaseEarlyTap(trigger.current);
    setEarly(false);
  }, []);

  // After a switch the header is rendered anew; keep keyboard focus where it was.
  useEffect(() => {
    if ((location.state as { focusLanguage?: boolean } | null)?.focusLanguage) trigger.current?.focus();
  }, [location.state]);

  const choose = (value: string) => {
    const target = value as Locale;
    if (target === locale) return;
    rememberLocale(target);
    navigate(twinPath(location.pathname, location.search, location.hash, target), { state: { focusLanguage: true } });
  };

  const other = locales.find((l) => l !== locale)!;
  const pathIn = (l: Locale) => twinPath(location.pathname, location.search, '', l);
  return (
    <div className="relative flex items-center gap-2">
      <DropdownMenu.Root modal={false} dir={dir(locale)} open={open} onOpenChange={setOpen}>
        <DropdownMenu.Trigger asChild>
          <button
            ref={trigger}
            onPointerDown={(e) => {
              pressSeen.current = !trigger.current?.hasAttribute(EARLY_TAP);
              if (!pressSeen.current) e.preventDefault(); // not Radix's yet: it would toggle too
            }}
            onClick={(e) => {
              if (!pressSeen.current && e.detail > 0) setOpen((o) => !o);
              pressSeen.current = false;
            }}
            type="button"
            data-testid="language-switcher"
            // Before hydration a disclosure of the static menu below (not Radix's menu: no menu
            // role, no aria-haspopup). Radix's own attributes apply once these keys are gone.
            {...(early && { [EARLY_TAP]: 'popup', 'aria-controls': earlyMenuId, 'aria-haspopup': undefined })}
            aria-label={t('language.current', { language: localeNames[locale] })}
            className="inline-flex min-h-11 items-center gap-1.5 rounded-full border border-navy-100 px-3 text-sm font-medium text-navy-900 hover:bg-navy-50"
          >
            <GlobeIcon className="size-4" />
            {/* The button is named by its aria-label; where the header is tight (a 320 px phone, a
                tablet showing the full navigation) the globe stands for the name. */}
            <span lang={locale} className="max-[359px]:hidden md:max-lg:hidden">
              {localeNames[locale]}
            </span>
            <ChevronDownIcon className="size-4" />
          </button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={8} className={`z-50 ${menuLook}`}>
            <DropdownMenu.Label className={labelLook}>{t('language.label')}</DropdownMenu.Label>
            <DropdownMenu.RadioGroup value={locale} onValueChange={choose}>
              {locales.map((l) => (
                <DropdownMenu.RadioItem
                  key={l}
                  value={l}
                  lang={l}
                  className={`${itemLook} cursor-pointer outline-none data-[highlighted]:bg-navy-50`}
                >
                  {localeNames[l]}
                  <DropdownMenu.ItemIndicator>
                    <CheckIcon className="size-4 text-gold-700" />
                  </DropdownMenu.ItemIndicator>
                </DropdownMenu.RadioItem>
              ))}
            </DropdownMenu.RadioGroup>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {/* The menu a tap opens before the code above has hydrated (the page's early script shows
          it), sent hidden with every page: the two languages as links, looking and placed like
          the menu above (end-aligned under the button). Without JavaScript the link below
          stands in for both. */}
      {early && (
        <div
          ref={earlyMenu}
          id={earlyMenuId}
          hidden
          data-testid="language-menu-early"
          className={`absolute end-0 top-full z-50 mt-2 ${menuLook}`}
        >
          <p id={`${earlyMenuId}l`} className={labelLook}>
            {t('language.label')}
          </p>
          <ul aria-labelledby={`${earlyMenuId}l`}>
            {locales.map((l) => (
              <li key={l}>
                <a
                  href={pathIn(l)}
                  hrefLang={l}
                  lang={l}
                  aria-current={l === locale ? 'page' : undefined}
                  {...{ [EARLY_TAP]: 'locale' }}
                  className={`${itemLook} hover:bg-navy-50 focus-visible:bg-navy-50`}
                >
                  {localeNames[l]}
                  {l === locale && <CheckIcon className="size-4 text-gold-700" />}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <noscript>
        <a href={pathIn(other)} hrefLang={other} lang={other} className="text-sm underline">
          {localeNames[other]}
        </a>
      </noscript>
    </div>
  );
}

// One look for the menu and its static stand-in.
const menuLook = 'min-w-44 rounded-xl border border-navy-100 bg-white p-1.5 shadow-xl';
const labelLook = 'px-3 py-1.5 text-xs font-semibold uppercase tracking-wide text-navy-500';
const itemLook = 'flex min-h-11 items-center justify-between gap-4 rounded-lg px-3 text-navy-900';
