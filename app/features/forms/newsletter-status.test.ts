import { describe, expect, it } from 'vitest';
import { newsletterStatusOf, returnUrlWithStatus, safeFormId } from './newsletter-status';

describe('returnUrlWithStatus', () => {
  it('adds the status, the form and its anchor', () => {
    expect(returnUrlWithStatus('/ar/blog?page=2', 'subscribed', 'blog')).toBe(
      '/ar/blog?page=2&newsletter=subscribed&newsletter_form=blog#newsletter-blog',
    );
  });
  it('never lets a form id break out of the URL', () => {
    expect(safeFormId('foot"er')).toBe('footer');
    expect(returnUrlWithStatus('/', 'invalid', '#x')).toBe(
      '/?newsletter=invalid&newsletter_form=footer#newsletter-footer',
    );
  });
});

describe('newsletterStatusOf', () => {
  it('maps action results to statuses', () => {
    expect(newsletterStatusOf({ status: 'subscribed' })).toBe('subscribed');
    expect(newsletterStatusOf({ status: 'rejected', formError: { messageKey: 'forms:invalidEmail' } })).toBe('invalid');
    expect(newsletterStatusOf({ status: 'rejected', formError: { messageKey: 'forms:spamTooFast' } })).toBe('tooFast');
    expect(newsletterStatusOf({ status: 'rejected', formError: { messageKey: 'forms:spamHoneypot' } })).toBe(
      'honeypot',
    );
    expect(newsletterStatusOf({ status: 'rejected', formError: { messageKey: 'forms:spamExpired' } })).toBe('expired');
    expect(newsletterStatusOf({ status: 'error', formError: { messageKey: 'forms:newsletter.error' } })).toBe('error');
    expect(newsletterStatusOf({ status: 'weird' })).toBe('error');
  });
});
