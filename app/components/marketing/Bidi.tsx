/**
 * Isolates a value or a Latin name inside text of the other direction. A value with no
 * letters ("240+", "16,000+", "68%") is laid out left to right so its sign stays put in
 * Arabic; anything else takes the direction of its first strong character. English that
 * stands in for a missing translation passes lang="en" dir="ltr" (useFallbackLang).
 */
export function Bidi({
  children,
  className,
  lang,
  dir,
}: {
  children: string;
  className?: string;
  lang?: string;
  dir?: 'ltr';
}) {
  const hasLetters = /\p{L}/u.test(children);
  return (
    <bdi dir={dir ?? (hasLetters ? 'auto' : 'ltr')} lang={lang} className={className}>
      {children}
    </bdi>
  );
}
