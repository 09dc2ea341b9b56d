import { useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { useT } from '~/lib/locale';

/** The pulsing-dot placeholder shown while the next page loads (after a short delay, so fast pages never flash it). */
export function NavigationProgress() {
  const navigation = useNavigation();
  const { t } = useT();
  const loading = navigation.state === 'loading' && !navigation.formMethod;
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!loading) return setVisible(false);
    const timer = setTimeout(() => setVisible(true), 150);
    return () => clearTimeout(timer);
  }, [loading]);

  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-28 z-50 flex justify-center md:top-44"
    >
      {visible && (
        <div
          data-testid="page-loading"
          className="flex items-center gap-2 rounded-full bg-white/95 px-4 py-3 shadow-lg ring-1 ring-navy-100"
        >
          {[0, 1, 2].map((i) => (
            <span
              key={i}
              className="size-2.5 animate-dot rounded-full bg-gold-500"
              style={{ animationDelay: `${i * 0.16}s` }}
            />
          ))}
          <span className="sr-only">{t('loading')}</span>
        </div>
      )}
    </div>
  );
}
