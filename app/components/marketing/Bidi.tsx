/**
 * Isolates a value or a Latin name inside text of the other direction. A value with no
 * letters ("240+", "16,000+", "68%") is laid out left to right so its sign stays put in
 * Arabic; anything else takes the direction of its first strong character.
 */
export function Bidi({ children, className }: { children: string; className?: string }) {
  const hasLetters = /\p{L}/u.test(children);
  return (
    <bdi dir={hasLetters ? 'auto' : 'ltr'} className={className}>
      {children}
    </bdi>
  );
}
