import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useLocation, useNavigate } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import {
  CheckIcon,
  ChevronDownIcon,
  dir,
  EARLY_HREF,
  EARLY_TAP,
  GlobeIcon,
  type Locale,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE,
  localeCookieValue,
  localeNames,
  locales,
  releaseEarlyTap,
  twinPath,
  useLocale,
  useT,
} from '~/kit';

export function rememberLocale(locale: Locale) {
  document.cookie = `${LOCALE_COOKIE}=${localeCookieValue(locale)}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE}; SameSite=Lax`;
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

  // Hydrated: the button opens the menu from now on (before, the page's early script took a tap
  // on it straight to the other language: app/lib/early-taps.ts).
  useEffect(() => releaseEarlyTap(trigger.current), []);

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
  const otherPath = twinPath(location.pathname, location.search, '', other);
  return (
    <>
      <DropdownMenu.Root modal={false} dir={dir(locale)}>
        <DropdownMenu.Trigger asChild>
          <button
            ref={trigger}
            type="button"
            data-testid="language-switcher"
            {...{ [EARLY_TAP]: 'link', [EARLY_HREF]: otherPath }}
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
          <DropdownMenu.Content
            align="end"
            sideOffset={8}
            className="z-50 min-w-44 rounded-xl border border-navy-100 bg-white p-1.5 shadow-xl"
          >
            <DropdownMenu.Label className="px-3 py-1.5 text-xs font-semibold uppercase tracking-wide text-navy-500">
              {t('language.label')}
            </DropdownMenu.Label>
            <DropdownMenu.RadioGroup value={locale} onValueChange={choose}>
              {locales.map((l) => (
                <DropdownMenu.RadioItem
                  key={l}
                  value={l}
                  lang={l}
                  className="flex min-h-11 cursor-pointer items-center justify-between gap-4 rounded-lg px-3 text-navy-900 outline-none data-[highlighted]:bg-navy-50"
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
      <noscript>
        <a href={otherPath} hrefLang={other} lang={other} className="text-sm underline">
          {localeNames[other]}
        </a>
      </noscript>
    </>
  );
}
