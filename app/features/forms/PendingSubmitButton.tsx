/**
 * A public form's submit button. While the form is sending it says so and ignores further clicks, but stays
 * focusable (aria-disabled rather than disabled) so keyboard focus is not lost mid-submit.
 */
export function PendingSubmitButton({
  pending,
  label,
  pendingLabel,
  className,
}: {
  pending: boolean;
  label: string;
  pendingLabel: string;
  className: string;
}) {
  return (
    <button
      type="submit"
      aria-disabled={pending || undefined}
      onClick={(e) => pending && e.preventDefault()}
      className={className}
    >
      {pending ? pendingLabel : label}
    </button>
  );
}
