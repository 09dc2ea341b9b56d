const base =
  'inline-flex min-h-11 items-center bg-gold-500 font-semibold text-navy-950 hover:bg-gold-400 aria-disabled:opacity-70';

/** The button's shape: a pill on its own line, or a box set beside a text field (the newsletter's email). */
const shapes = {
  pill: `${base} rounded-full px-6`,
  beside: `${base} shrink-0 justify-center rounded-lg px-5`,
};

/**
 * A public form's submit button (gold). While the form is sending it says so and ignores further clicks, but stays
 * focusable (aria-disabled rather than disabled) so keyboard focus is not lost mid-submit.
 */
export function PendingSubmitButton({
  pending,
  label,
  pendingLabel,
  shape = 'pill',
}: {
  pending: boolean;
  label: string;
  pendingLabel: string;
  shape?: keyof typeof shapes;
}) {
  return (
    <button
      type="submit"
      aria-disabled={pending || undefined}
      onClick={(e) => pending && e.preventDefault()}
      className={shapes[shape]}
    >
      {pending ? pendingLabel : label}
    </button>
  );
}
