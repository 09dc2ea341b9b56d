import { useFallbackLang } from '~/lib/content-lang';
import { useLocalizePath, useT } from '~/lib/locale';

/**
 * What every insights page and card needs to write its text: the insights translations, the
 * current language's path for a link, and the `lang` marker for a field that fell back to English.
 */
export function useInsightsCopy() {
  const { t } = useT('insights');
  const localize = useLocalizePath();
  const inEnglish = useFallbackLang();
  return { t, localize, inEnglish };
}
