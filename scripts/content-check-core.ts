/**
 * The translation audit behind `npm run content:check`: for every published document,
 * every localized field whose Arabic is empty or identical to the English, and every
 * localized field with no English (an error: English is required and the fallback).
 */
import { isLocaleObject, isLocaleValueEmpty } from '../schemas/translation-state';

export type Finding = {
  id: string;
  type: string;
  path: string;
  kind: 'missingEnglish' | 'missingArabic' | 'sameAsEnglish';
};

type Doc = { _id: string; _type: string; [k: string]: unknown };

const plainText = (value: unknown): string => {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) {
    return value
      .map((block) =>
        block && typeof block === 'object' && Array.isArray((block as { children?: unknown[] }).children)
          ? (block as { children: { text?: string }[] }).children.map((c) => c.text ?? '').join('')
          : '',
      )
      .join('\n')
      .trim();
  }
  return '';
};

/** Documents people see: not drafts, not private submissions, not Sanity's own. */
export function isPublishedContent(doc: Doc): boolean {
  return (
    !doc._id.startsWith('drafts.') &&
    !doc._id.startsWith('versions.') &&
    !doc._id.includes('.') &&
    !doc._type.startsWith('sanity.') &&
    !doc._type.startsWith('system.')
  );
}

export function checkDocument(doc: Doc): Finding[] {
  const findings: Finding[] = [];
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${path}[${i}]`));
    if (!value || typeof value !== 'object') return;
    if (isLocaleObject(value)) {
      const at = path || '(root)';
      const base = { id: doc._id, type: doc._type, path: at };
      if (isLocaleValueEmpty(value.en)) findings.push({ ...base, kind: 'missingEnglish' });
      else if (isLocaleValueEmpty(value.ar)) findings.push({ ...base, kind: 'missingArabic' });
      else {
        const en = plainText(value.en);
        // Short values (a number, an acronym) may rightly be the same in both languages.
        if (en.length > 3 && /\p{L}/u.test(en) && en === plainText(value.ar))
          findings.push({ ...base, kind: 'sameAsEnglish' });
      }
      return;
    }
    for (const [key, child] of Object.entries(value))
      if (!key.startsWith('_')) walk(child, path ? `${path}.${key}` : key);
  };
  walk(doc, '');
  return findings;
}

export function checkDocuments(docs: Doc[]): Finding[] {
  return docs.filter(isPublishedContent).flatMap(checkDocument);
}

export function formatReport(findings: Finding[], documentCount: number): string {
  const label = {
    missingEnglish: 'English missing (required)',
    missingArabic: 'Arabic missing',
    sameAsEnglish: 'Arabic identical to English',
  };
  const lines: string[] = [];
  const byType = new Map<string, Finding[]>();
  for (const f of findings) byType.set(f.type, [...(byType.get(f.type) ?? []), f]);
  for (const [type, list] of [...byType].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`${type}:`);
    for (const f of list) lines.push(`  ${f.id}  ${f.path}  — ${label[f.kind]}`);
  }
  const count = (k: Finding['kind']) => findings.filter((f) => f.kind === k).length;
  lines.push(
    `${documentCount} published documents checked: ${count('missingEnglish')} English missing, ${count('missingArabic')} Arabic missing, ${count('sameAsEnglish')} Arabic identical to English.`,
  );
  return lines.join('\n');
}
