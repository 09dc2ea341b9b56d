import { serverResources } from '~/i18next.server';
import type { Locale } from '~/i18n';

/**
 * Reading a form post. Only the two encodings a browser's form sends are accepted
 * (application/x-www-form-urlencoded, multipart/form-data); anything else is refused with 415
 * and a body that cannot be parsed (broken multipart) with 400, before anything is stored.
 * For the refusal's language the caller still gets the form's `return_to` when the body names
 * one in a readable way (urlencoded or JSON text), so a page's language can be answered.
 */
export type FormBody = { ok: true; form: FormData } | { ok: false; status: 400 | 415; returnTo: string | null };

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

export function isFormContentType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return FORM_TYPES.has(type);
}

function returnToIn(body: string, field: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && typeof (parsed as Record<string, unknown>)[field] === 'string') {
      return (parsed as Record<string, string>)[field]!;
    }
  } catch {
    // not JSON: try the urlencoded shape (also what an enctype=text/plain form sends, line by line)
  }
  for (const line of body.split(/\r?\n/)) {
    const value = new URLSearchParams(line).get(field);
    if (value) return value;
  }
  return null;
}

export async function readFormBody(request: Request, returnField?: string): Promise<FormBody> {
  if (!isFormContentType(request.headers.get('Content-Type'))) {
    let returnTo: string | null = null;
    if (returnField) {
      const body = await request.text().catch(() => '');
      returnTo = returnToIn(body.slice(0, 64 * 1024), returnField);
    }
    return { ok: false, status: 415, returnTo };
  }
  const copy = returnField ? request.clone() : null;
  try {
    return { ok: true, form: await request.formData() };
  } catch {
    // Broken multipart: the return path may still be readable in the raw parts.
    const raw = copy ? await copy.text().catch(() => '') : '';
    const part = returnField ? new RegExp(`name="${returnField}"\\r?\\n\\r?\\n([^\\r\\n]{1,2000})`).exec(raw) : null;
    return { ok: false, status: 400, returnTo: part?.[1] ?? null };
  }
}

/** A `forms` string in the given language, for answers that are not rendered by React. */
export function formText(locale: Locale, key: string): string {
  const [ns, path] = key.includes(':') ? (key.split(':', 2) as [string, string]) : ['forms', key];
  let node: unknown = serverResources()[locale]?.[ns];
  for (const part of path.split('.'))
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node : key;
}
