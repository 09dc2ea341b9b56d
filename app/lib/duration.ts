import type { Locale } from '~/i18n';

export type DurationUnit = 'minute' | 'hour' | 'day' | 'month' | 'year';
type Forms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/**
 * How long something is kept, as the policies say it in each language. Arabic counts by its own
 * plural rules (Intl.PluralRules): one and two have their own words, 3 to 10 take the plural
 * (٣ أيام), 11 to 99 the singular accusative (٣٠ يومًا), 100 and more the singular (١٠٠ يوم).
 */
const FORMS: Record<Locale, Record<DurationUnit, Forms>> = {
  en: {
    minute: { one: '{n} minute', other: '{n} minutes' },
    hour: { one: '{n} hour', other: '{n} hours' },
    day: { one: '{n} day', other: '{n} days' },
    month: { one: '{n} month', other: '{n} months' },
    year: { one: '{n} year', other: '{n} years' },
  },
  ar: {
    minute: { one: 'دقيقة واحدة', two: 'دقيقتان', few: '{n} دقائق', many: '{n} دقيقة', other: '{n} دقيقة' },
    hour: { one: 'ساعة واحدة', two: 'ساعتان', few: '{n} ساعات', many: '{n} ساعة', other: '{n} ساعة' },
    day: { one: 'يوم واحد', two: 'يومان', few: '{n} أيام', many: '{n} يومًا', other: '{n} يوم' },
    month: { one: 'شهر واحد', two: 'شهران', few: '{n} أشهر', many: '{n} شهرًا', other: '{n} شهر' },
    year: { one: 'سنة واحدة', two: 'سنتان', few: '{n} سنوات', many: '{n} سنة', other: '{n} سنة' },
  },
};

const RULES: Record<Locale, Intl.PluralRules> = { en: new Intl.PluralRules('en'), ar: new Intl.PluralRules('ar') };

export function duration(n: number, unit: DurationUnit): Record<Locale, string> {
  const say = (locale: Locale) => {
    const forms = FORMS[locale][unit];
    const form = forms[RULES[locale].select(n)] ?? forms.other;
    return form.replace('{n}', n.toLocaleString('en-US'));
  };
  return { en: say('en'), ar: say('ar') };
}
