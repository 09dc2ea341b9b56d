// React's production JSX runtime is patched for server renders (patches/react+18.3.1.patch,
// ADR 0017): with no document, `jsx(type, props)` keeps the props object the compiler built
// instead of copying it key by key, unless it must take a key or ref out of it or fill in
// defaultProps (what React 19's runtime does). Tests run React's development runtime, so the
// production file is loaded here by path and its elements compared with what React's own
// createElement builds for the same arguments.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createElement, forwardRef, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
type Runtime = { jsx: (type: unknown, props: Record<string, unknown>, key?: unknown) => ReactElement };
const reactDir = path.dirname(require.resolve('react/package.json'));
const production = require(path.join(reactDir, 'cjs/react-jsx-runtime.production.min.js')) as Runtime;

/** createElement's element for jsx's arguments (children are a prop in both). */
function reference(type: never, config: Record<string, unknown>, key?: unknown): ReactElement {
  return createElement(type, key === undefined ? config : { ...config, key });
}
const shape = (e: ReactElement) => ({
  type: e.type,
  key: e.key,
  ref: (e as unknown as { ref: unknown }).ref,
  props: e.props,
});

function Greeting({ name, punctuation }: { name: string; punctuation: string }) {
  return createElement('p', { className: 'hi' }, `Hello ${name}${punctuation}`);
}
Greeting.defaultProps = { punctuation: '!' };
const Input = forwardRef<HTMLInputElement, { label: string }>(function Input({ label }, ref) {
  return createElement('input', { 'aria-label': label, ref });
});

describe('the production JSX runtime on the server', () => {
  it('keeps the props object the compiler built when it has no key or ref', () => {
    const props = { className: 'card', children: 'text' };
    const element = production.jsx('div', props);
    expect(element.props).toBe(props);
    expect(shape(element)).toEqual(shape(reference('div' as never, { className: 'card', children: 'text' })));
  });

  it('still takes a key or a ref out of the props, and fills in defaultProps', () => {
    const ref = { current: null };
    const cases: [unknown, Record<string, unknown>, unknown?][] = [
      ['li', { key: 'a', className: 'x' }],
      ['li', { className: 'x' }, 'b'],
      ['li', { className: 'x', key: undefined }],
      [Input, { label: 'Email', ref }],
      [Greeting, { name: 'Dana' }],
      [Greeting, { name: 'Dana', punctuation: '?' }],
    ];
    for (const [type, config, key] of cases) {
      const element = production.jsx(type, { ...config }, key);
      expect(shape(element)).toEqual(shape(reference(type as never, config, key)));
      expect(element.props).not.toHaveProperty('key');
      expect(element.props).not.toHaveProperty('ref');
    }
  });

  it('renders the same HTML as React builds it', () => {
    const tree = (jsx: Runtime['jsx']) =>
      jsx('ul', {
        className: 'list',
        children: ['a', 'b'].map((k) => jsx('li', { children: jsx(Greeting, { name: k }) }, k)),
      });
    const ours = renderToString(tree(production.jsx));
    expect(ours).toBe(renderToString(tree((type, config, key) => reference(type as never, config, key))));
    expect(ours).toContain('<p class="hi">Hello a!</p>');
  });
});
