/**
 * Structured data for search engines. The JSON is escaped so that no value from the CMS
 * can close the script element ("</script>") or open a comment.
 */
export function jsonLdString(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function JsonLd({ data }: { data: unknown }) {
  // Data, never run: the Content-Security-Policy hashes only scripts a browser runs (ADR 0023).
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdString(data) }} />;
}
