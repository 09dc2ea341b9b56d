// @vitest-environment jsdom
/**
 * Route tests for the two public form actions, through Remix's own router (createRemixStub):
 * the FAQ page's action and POST /api/newsletter, posted as a browser's form would be, against
 * a throwaway embedded store. What the page gets back is the contract: a stored submission, a
 * localized refusal per field, a spam verdict, and the token for the next try.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const dataDir = vi.hoisted(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { mkdtempSync: make } = require('node:fs') as typeof import('node:fs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { tmpdir: tmp } = require('node:os') as typeof import('node:os');
  // The router builds the urlencoded body with the global URLSearchParams: Node's, which Node's
  // Request can send (jsdom's would reach the action as "[object URLSearchParams]").
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  globalThis.URLSearchParams = (require('node:url') as typeof import('node:url'))
    .URLSearchParams as typeof URLSearchParams;
  const dir = make(`${tmp()}/forms-route-`);
  process.env.CONTENT_DATA_DIR = dir;
  process.env.SESSION_SECRET = 'route-test-session-secret-0123456789abcdef';
  process.env.MAIL_TO = 'firm@example.com';
  return dir;
});

import type { ActionFunctionArgs } from '@remix-run/node';
import { createRemixStub } from '@remix-run/testing';
import { useFetcher } from '@remix-run/react';
import { act, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { createFormToken, MIN_FILL_MS } from './spam-check';
import { action as faqAction } from './faq-question.server';
import { action as newsletterAction } from '~/resources/newsletter';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const SECRET = process.env.SESSION_SECRET!;

// The action's request.formData() is Node's FormData; the code checks `instanceof FormData`,
// which must be that one too, not jsdom's.
beforeAll(async () => {
  const parsed = await new Request('http://site.invalid/', {
    method: 'POST',
    body: new URLSearchParams('a=1'),
  }).formData();
  globalThis.FormData = parsed.constructor as typeof FormData;
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Answer = { status: number | undefined; data: unknown };

/**
 * Posts `fields` (urlencoded, as a plain form) to `route` through a Remix stub and returns what
 * the action answered. The stub mounts the real action at the route's path.
 */
async function post(
  path: string,
  routeAction: (args: ActionFunctionArgs) => Promise<unknown>,
  fields: Record<string, string>,
): Promise<Answer> {
  let status: number | undefined;
  const answers: unknown[] = [];
  function Probe() {
    const fetcher = useFetcher();
    useEffect(() => {
      fetcher.submit(fields, { method: 'post', encType: 'application/x-www-form-urlencoded' });
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, []);
    useEffect(() => {
      if (fetcher.state === 'idle' && fetcher.data !== undefined) answers.push(fetcher.data);
    }, [fetcher.state, fetcher.data]);
    return null;
  }
  const Stub = createRemixStub([
    {
      path,
      Component: Probe,
      action: async (args) => {
        const response = await routeAction(args as ActionFunctionArgs);
        status =
          (response as { init?: { status?: number } })?.init?.status ??
          (response instanceof Response ? response.status : 200);
        return response as never;
      },
    },
  ]);
  const container = document.createElement('div');
  const root = createRoot(container);
  await act(async () => root.render(<Stub initialEntries={[path]} />));
  for (let i = 0; i < 200 && answers.length === 0; i++) await act(() => new Promise((r) => setTimeout(r, 10)));
  act(() => root.unmount());
  return { status, data: answers[0] };
}

const token = (ageMs = MIN_FILL_MS + 1000) => createFormToken(Date.now() - ageMs, SECRET);
const question = {
  name: 'Layla Haddad',
  email: 'layla@example.ae',
  phone: '+971 50 123 4567',
  question: 'How long does a licence take?',
  hp_leave_empty: '',
};

describe('FAQ action (route)', () => {
  beforeAll(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });

  it('stores a valid question', async () => {
    const answer = await post('/faq', faqAction, { ...question, form_started: await token() });
    expect(answer.data).toEqual({ status: 'submitted' });
  });

  it('refuses missing fields with their messages, in the page language (keys the page translates)', async () => {
    const answer = await post('/ar/faq', faqAction, {
      ...question,
      name: '',
      phone: '0501234567',
      form_started: await token(),
    });
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({
      status: 'rejected',
      formError: { titleKey: 'forms:incompleteTitle', messageKey: 'forms:incomplete' },
      fieldErrors: { name: 'forms:required', phone: 'forms:phoneCountryCode' },
      values: { email: 'layla@example.ae' },
    });
  });

  it('answers spam: a filled honeypot, a post without a token (with one for the next try), too fast', async () => {
    expect(
      (await post('/faq', faqAction, { ...question, hp_leave_empty: 'http://spam', form_started: await token() })).data,
    ).toMatchObject({
      formError: { messageKey: 'forms:spamHoneypot' },
    });
    const missing = await post('/faq', faqAction, { ...question });
    expect(missing.data).toMatchObject({
      formError: { titleKey: 'forms:confirmTitle', messageKey: 'forms:confirmSend' },
      token: expect.stringMatching(/^\d+\./),
    });
    expect((await post('/faq', faqAction, { ...question, form_started: await token(100) })).data).toMatchObject({
      formError: { messageKey: 'forms:spamTooFast' },
    });
  });
});

describe('newsletter action (route)', () => {
  const signup = (email: string, extra: Record<string, string> = {}) => ({
    email,
    hp_leave_empty: '',
    return_to: '/ar/blog',
    form_id: 'blog',
    _js: '1',
    ...extra,
  });

  it('subscribes a valid address', async () => {
    const answer = await post(
      '/api/newsletter',
      newsletterAction,
      signup('reader@example.com', { form_started: await token() }),
    );
    expect(answer.data).toEqual({ status: 'subscribed' });
  });

  it('refuses an invalid address with its message', async () => {
    const answer = await post(
      '/api/newsletter',
      newsletterAction,
      signup('not-an-email', { form_started: await token() }),
    );
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({
      status: 'rejected',
      formError: { titleKey: 'forms:invalidEmailTitle', messageKey: 'forms:invalidEmail' },
    });
  });

  it('answers spam with its message', async () => {
    expect(
      (
        await post(
          '/api/newsletter',
          newsletterAction,
          signup('bot@example.com', { hp_leave_empty: 'x', form_started: await token() }),
        )
      ).data,
    ).toMatchObject({
      formError: { messageKey: 'forms:spamHoneypot' },
    });
    expect(
      (await post('/api/newsletter', newsletterAction, signup('quick@example.com', { form_started: await token(10) })))
        .data,
    ).toMatchObject({
      formError: { messageKey: 'forms:spamTooFast' },
    });
  });
});
