import { useId } from 'react';
import { useT } from '~/lib/locale';
import { HONEYPOT_FIELD } from './fields';

/** The field people never see or reach (off-screen, out of the tab order); bots fill it. */
export function Honeypot() {
  const { t } = useT('forms');
  const id = useId();
  return (
    <div aria-hidden="true" className="absolute -start-[10000px] top-auto h-px w-px overflow-hidden">
      <label htmlFor={id}>{t('honeypotLabel')}</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
