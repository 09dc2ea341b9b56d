import { describe, expect, it } from 'vitest';
import { newsletterStatusOf, returnUrlWithStatus, safeFormId, safeReturnPath } from './newsletter-status';

const ORIGINS = ['http://127.0.0.1:3000', 'https://www.bawaba-advisory.com'];

describe('safeReturnPath', () => {
  it('accepts site paths and same-origin URLs, dropping our parameters and the hash', () => {
    expect(safeReturnPath('/blog', ORIGINS)).toBe('/blog');
    expect(safeReturnPath('/ar/blog?page=2&newsletter=invalid&newsletter_form=footer#x', ORIGINS)).toBe('/ar/blog?page=2');
    expect(safeReturnPath('https://www.bawaba-advisory.com/faq?x=1', ORIGINS)).toBe('/faq?x=1');
    expect(safeReturnPath('http://127.0.0.1:3000/', ORIGINS)).toBe('/');
  });
  it('refuses other origins, protocol-relative and backslash tricks, and junk', () => {
    for (const raw of ['https://evil.com/faq', '//evil.com/faq', '/\\evil.com/faq', '\\\\evil.com', 'javascript:alert(1)', 'http://www.bawaba-advisory.com/', '', null, undefined, `/${'a'.repeat(3000)}`]) {
      expect(safeReturnPath(raw, ORIGINS), String(raw)).toBeNull();
    }
  });
});

describe('returnUrlWithStatus', () => {
  it('adds the status, the form and its anchor', () => {
    expect(returnUrlWithStatus('/ar/blog?page=2', 'subscribed', 'blog')).toBe('/ar/blog?page=2&newsletter=subscribed&newsletter_form=blog#newsletter-blog');
  });
  it('never lets a form id break out of the URL', () => {
    expect(safeFormId('foot"er')).toBe('footer');
    expect(returnUrlWithStatus('/', 'invalid', '#x')).toBe('/?newsletter=invalid&newsletter_form=footer#newsletter-footer');
  });
});

describe('newsletterStatusOf', () => {
  it('maps action results to statuses', () => {
    expect(newsletterStatusOf({ status: 'subscribed' })).toBe('subscribed');
    expect(newsletterStatusOf({ status: 'rejected', formError: { messageKey: 'forms:invalidEmail' } })).toBe('invalid');
    expect(newsletterStatusOf({ status: 'rejected', formError: { messageKey: 'forms:spamTooFast' } })).toBe('tooFast');
    expect(newsletterStatusOf({ status: 'rejected', formError: { messageKey: 'forms:spamHoneypot' } })).toBe('honeypot');
    expect(newsletterStatusOf({ status: 'rejected', formError: { messageKey: 'forms:spamExpired' } })).toBe('expired');
    expect(newsletterStatusOf({ status: 'error', formError: { messageKey: 'forms:newsletter.error' } })).toBe('error');
    expect(newsletterStatusOf({ status: 'weird' })).toBe('error');
  });
});
