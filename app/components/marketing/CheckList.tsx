import { CheckIcon } from '~/components/icons';
import { useFallbackLang } from '~/lib/content-lang';

type Props = {
  items: { _key: string; text: string }[];
  /** Names the list when no heading does (aria-label). */
  label?: string;
  className: string;
  itemClassName: string;
  iconClassName: string;
};

/** A list of short content lines, each after a check mark (claims, reasons, what an offer includes). */
export function CheckList({ items, label, className, itemClassName, iconClassName }: Props) {
  const inEnglish = useFallbackLang();
  return (
    <ul aria-label={label} className={className}>
      {items.map((item) => (
        <li key={item._key} className={itemClassName}>
          <CheckIcon className={iconClassName} />
          <span {...inEnglish(item.text)}>{item.text}</span>
        </li>
      ))}
    </ul>
  );
}
