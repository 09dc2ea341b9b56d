/** Parts of the blog's listing pages: a sidebar box and the empty state. */

/** A titled box of the listing's sidebar (popular tags, categories, newsletter). */
export function SidebarSection({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-2xl border border-sand-200 bg-white p-6">
      <h2 className="text-base font-bold text-navy-900">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The empty state of a listing (a tag or category without posts). */
export function EmptyState({
  testId,
  title,
  text,
  children,
}: {
  testId: string;
  title: string;
  text: string;
  children?: React.ReactNode;
}) {
  return (
    <div
      data-testid={testId}
      className="rounded-3xl border border-dashed border-sand-200 bg-sand-50 px-6 py-12 text-center"
    >
      <h2 className="text-xl font-bold text-navy-900">{title}</h2>
      <p className="mx-auto mt-2 max-w-md text-navy-700">{text}</p>
      {children && <div className="mt-6">{children}</div>}
    </div>
  );
}
