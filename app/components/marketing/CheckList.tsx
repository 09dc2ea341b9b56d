import { CmsText } from '~/components/CmsText';
import { CheckIcon } from '~/components/icons';

type Props = {
  items: { _key: string; text: string }[];
  /** Names the list when no heading does (aria-label). */
  label?: string;
  className: string;
  itemClassName: string;
  iconClassName: string;
  /** Sets the check mark in a badge (a span with this class). */
  badgeClassName?: string;
};

/** A list of short content lines, each after a check mark (claims, reasons, what an offer includes). */
export function CheckList({ items, label, className, itemClassName, iconClassName, badgeClassName }: Props) {
  const icon = <CheckIcon className={iconClassName} />;
  return (
    <ul aria-label={label} className={className}>
      {items.map((item) => (
        <li key={item._key} className={itemClassName}>
          {badgeClassName ? <span className={badgeClassName}>{icon}</span> : icon}
          <CmsText as="span" text={item.text} />
        </li>
      ))}
    </ul>
  );
}
