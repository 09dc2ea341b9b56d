import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDocuments } from './content-check-core';

const ls = (en: string, ar: string) => ({ _type: 'localeString', en, ar });

describe('content check', () => {
  it('reports Arabic that is empty or copied from English, with the field path', () => {
    const findings = checkDocuments([
      {
        _id: 'service-a',
        _type: 'service',
        title: ls('Market Entry', ''),
        features: [{ _key: 'k', ...ls('Licensing support', 'Licensing support') }],
      },
    ]);
    expect(findings).toEqual([
      { id: 'service-a', type: 'service', path: 'title', kind: 'missingArabic' },
      { id: 'service-a', type: 'service', path: 'features[0]', kind: 'sameAsEnglish' },
    ]);
  });

  it('flags a missing English value, and leaves short or numeric equal values alone', () => {
    const findings = checkDocuments([
      { _id: 'stat', _type: 'statistic', label: ls('', 'نمو'), value: ls('68%', '68%'), tag: ls('UAE', 'UAE') },
    ]);
    expect(findings).toEqual([{ id: 'stat', type: 'statistic', path: 'label', kind: 'missingEnglish' }]);
  });

  it('looks inside Portable Text and image alt text, and skips drafts and private submissions', () => {
    const body = (text: string) => [{ _type: 'block', _key: 'b', children: [{ _type: 'span', _key: 's', text }] }];
    const findings = checkDocuments([
      {
        _id: 'blogPost-x',
        _type: 'blogPost',
        body: { _type: 'localeBlockContent', en: body('Hello there'), ar: [] },
        cover: { _type: 'image', alt: ls('Skyline', '') },
      },
      { _id: 'drafts.blogPost-x', _type: 'blogPost', title: ls('Draft', '') },
      { _id: 'submission.faqQuestion.1', _type: 'faqQuestion', note: ls('x', '') },
    ]);
    expect(findings.map((f) => f.path)).toEqual(['body', 'cover.alt']);
  });

  it('the bundled dataset passes with no missing Arabic', () => {
    const out = execFileSync('node', ['node_modules/vite-node/vite-node.mjs', 'scripts/content-check.ts'], {
      encoding: 'utf8',
    });
    expect(out).toMatch(/0 English missing, 0 Arabic missing/);
  });

  it('exits non-zero on a missing English field', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'check-'));
    const file = path.join(dir, 'd.ndjson');
    writeFileSync(file, JSON.stringify({ _id: 'office-x', _type: 'office', city: ls('', 'دبي') }) + '\n');
    let status = 0;
    try {
      execFileSync('node', ['node_modules/vite-node/vite-node.mjs', 'scripts/content-check.ts', '--dataset', file], {
        encoding: 'utf8',
      });
    } catch (error) {
      status = (error as { status: number }).status;
    }
    expect(status).toBe(1);
  });
});
