import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README is the front door: short, opening with the two commands a fresh machine needs, and
 * every document it and docs/ point to exists (a moved section must not leave a dead link).
 */
const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

const DOCS = [
  'README.md',
  'bench/README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(file: string): Set<string> {
  const text = read(file).replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!)));
}

/** Relative links of a Markdown file (code blocks and code spans are not links). */
function relativeLinks(file: string): string[] {
  const text = read(file)
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href));
}

describe('README.md', () => {
  it('is under 8 KB', () => {
    expect(statSync(path.join(root, 'README.md')).size).toBeLessThan(8 * 1024);
  });

  it('opens with exactly the two commands for a fresh machine', () => {
    const lines = read('README.md').split('\n');
    expect(lines[0]).toMatch(/^# /);
    const open = lines.findIndex((l) => l.trim() !== '' && !l.startsWith('# '));
    expect(lines[open]).toBe('```sh');
    const close = lines.indexOf('```', open + 1);
    // A command's comment may go on over more lines; those lines hold no command.
    const commands = lines
      .slice(open + 1, close)
      .map((l) => l.replace(/(^|\s+)#.*$/, ''))
      .filter((l) => l.trim() !== '');
    expect(commands).toEqual(['npm ci && npm run build && npm start', 'npm ci && npm test']);
  });

  it('its first command builds the Studio too, which the site serves at /studio', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts.build.split('&&').map((c) => c.trim())).toEqual([
      'remix build',
      'npm run --silent build:overlays',
      'npm run --silent build:compress',
      'npm run --silent studio:build',
    ]);
    // The Studio's own CLI, from its own package (studio/node_modules, ADR 0027) ...
    expect(scripts['studio:build']).toMatch(/SANITY_STUDIO_BASE_PATH=\/studio node_modules\/\.bin\/sanity build/);
    // ... which the README's `npm ci` installs, from the Studio's own lockfile.
    expect(scripts.postinstall).toBe('npm ci --prefix studio --no-audit --no-fund');
    expect(existsSync(path.join(root, 'studio', 'package-lock.json'))).toBe(true);
  });
});

describe('links between the docs', () => {
  it.each(DOCS)('every relative link in %s names an existing file (and heading)', (file) => {
    const dead: string[] = [];
    for (const href of relativeLinks(file)) {
      const [target, anchor] = href.split('#') as [string, string | undefined];
      const resolved = target ? path.join(path.dirname(file), decodeURIComponent(target)) : file;
      if (!existsSync(path.join(root, resolved))) {
        dead.push(`${href} (no ${resolved})`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
        dead.push(`${href} (no heading #${anchor} in ${resolved})`);
      }
    }
    expect(dead).toEqual([]);
  });
});
