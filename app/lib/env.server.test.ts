import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.server';

describe('environment', () => {
  it('runs the embedded world when no Sanity project is configured', () => {
    const e = parseEnv({});
    expect(e.content.world).toBe('embedded');
    expect(e.siteUrl).toBe('http://localhost:3000');
  });

  it('treats empty hosted settings as missing, not as an error', () => {
    expect(parseEnv({ SANITY_PROJECT_ID: '', SANITY_READ_TOKEN: ' ' }).content.world).toBe('embedded');
  });

  it('runs the hosted world with a project id, with defaults for dataset and API version', () => {
    const e = parseEnv({ SANITY_PROJECT_ID: 'abc123', SESSION_SECRET: 's', NODE_ENV: 'production' });
    expect(e.content).toMatchObject({ world: 'hosted', projectId: 'abc123', dataset: 'production', apiVersion: '2025-02-19' });
  });

  it('stops with a clear message on a malformed setting', () => {
    expect(() => parseEnv({ SANITY_PROJECT_ID: 'Not Valid!' })).toThrow(/SANITY_PROJECT_ID/);
    expect(() => parseEnv({ SITE_URL: 'not a url' })).toThrow(/SITE_URL/);
  });

  it('requires a session secret for hosted production', () => {
    expect(() => parseEnv({ SANITY_PROJECT_ID: 'abc123', NODE_ENV: 'production' })).toThrow(/SESSION_SECRET/);
  });

  it('reads the Studio URL (default: where npm run studio:dev serves it) and an optional Content Lake host', () => {
    const hosted = (extra: Record<string, string>) => parseEnv({ SANITY_PROJECT_ID: 'abc123', ...extra }).content;
    expect(hosted({})).toMatchObject({ studioUrl: 'http://localhost:3333' });
    expect(hosted({})).not.toHaveProperty('apiHost');
    expect(hosted({ SANITY_STUDIO_URL: 'https://bawaba.sanity.studio/', SANITY_API_HOST: 'http://127.0.0.1:3651/' })).toMatchObject({
      studioUrl: 'https://bawaba.sanity.studio',
      apiHost: 'http://127.0.0.1:3651',
    });
    expect(hosted({ SANITY_STUDIO_URL: '/studio' })).toMatchObject({ studioUrl: '/studio' });
    expect(() => parseEnv({ SANITY_STUDIO_URL: 'bawaba.sanity.studio' })).toThrow(/SANITY_STUDIO_URL/);
    expect(() => parseEnv({ SANITY_STUDIO_URL: '//evil.example' })).toThrow(/SANITY_STUDIO_URL/);
    expect(() => parseEnv({ SANITY_API_HOST: 'ftp://example.com' })).toThrow(/SANITY_API_HOST/);
  });

  it('drops a trailing slash from the site URL', () => {
    expect(parseEnv({ SITE_URL: 'https://example.com/' }).siteUrl).toBe('https://example.com');
  });

  it('reads the mail settings: SMTP when set, otherwise an outbox under the data folder', () => {
    expect(parseEnv({}).mail).toEqual({ smtpUrl: undefined, from: undefined, to: undefined, outboxDir: 'data/outbox' });
    expect(parseEnv({ CONTENT_DATA_DIR: '/tmp/x' }).mail.outboxDir).toBe('/tmp/x/outbox');
    expect(parseEnv({ OUTBOX_DIR: '/tmp/out', SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_TO: 'a@example.com' }).mail).toMatchObject({ outboxDir: '/tmp/out', smtpUrl: 'smtps://u:p@mail.example.com:465', to: 'a@example.com' });
    expect(() => parseEnv({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
    expect(() => parseEnv({ MAIL_FROM: 'a@example.com\nBcc: x@example.com' })).toThrow(/MAIL_FROM/);
  });
});
