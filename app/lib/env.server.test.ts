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

  it('drops a trailing slash from the site URL', () => {
    expect(parseEnv({ SITE_URL: 'https://example.com/' }).siteUrl).toBe('https://example.com');
  });
});
