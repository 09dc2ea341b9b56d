/**
 * Private submissions from the site's forms. They are stored with a period in their id
 * (submission.…), which the public API never serves, and are read-only in the Studio.
 */
import { defineField, defineType } from 'sanity';
import { SUBMISSION_LOCALES } from '../constants';

const shortDate = (iso?: string) => (iso ? iso.slice(0, 16).replace('T', ' ') : undefined);

export const faqQuestion = defineType({
  name: 'faqQuestion',
  title: 'Question from the FAQ form',
  type: 'document',
  readOnly: true,
  fields: [
    defineField({ name: 'name', title: 'Name', type: 'string', readOnly: true }),
    defineField({ name: 'email', title: 'Email', type: 'string', readOnly: true }),
    defineField({ name: 'phone', title: 'Phone', type: 'string', readOnly: true }),
    defineField({ name: 'question', title: 'Question', type: 'text', rows: 6, readOnly: true }),
    defineField({
      name: 'locale',
      title: 'Language of the page',
      type: 'string',
      options: { list: SUBMISSION_LOCALES },
      readOnly: true,
    }),
    defineField({ name: 'page', title: 'Sent from page', type: 'string', readOnly: true }),
    defineField({ name: 'submittedAt', title: 'Received', type: 'datetime', readOnly: true }),
  ],
  orderings: [{ title: 'Newest first', name: 'submittedAtDesc', by: [{ field: 'submittedAt', direction: 'desc' }] }],
  preview: {
    select: { question: 'question', name: 'name', email: 'email', submittedAt: 'submittedAt' },
    prepare: ({
      question,
      name,
      email,
      submittedAt,
    }: {
      question?: string;
      name?: string;
      email?: string;
      submittedAt?: string;
    }) => ({
      title: question ?? '(no question)',
      subtitle: [shortDate(submittedAt), name, email].filter(Boolean).join(' · '),
    }),
  },
});

export const newsletterSignup = defineType({
  name: 'newsletterSignup',
  title: 'Newsletter sign-up',
  type: 'document',
  readOnly: true,
  fields: [
    defineField({ name: 'email', title: 'Email', type: 'string', readOnly: true }),
    defineField({
      name: 'locale',
      title: 'Language of the page',
      type: 'string',
      options: { list: SUBMISSION_LOCALES },
      readOnly: true,
    }),
    defineField({ name: 'page', title: 'Signed up on page', type: 'string', readOnly: true }),
    defineField({ name: 'submittedAt', title: 'Signed up', type: 'datetime', readOnly: true }),
  ],
  orderings: [{ title: 'Newest first', name: 'submittedAtDesc', by: [{ field: 'submittedAt', direction: 'desc' }] }],
  preview: {
    select: { email: 'email', locale: 'locale', submittedAt: 'submittedAt' },
    prepare: ({ email, locale, submittedAt }: { email?: string; locale?: string; submittedAt?: string }) => ({
      title: email ?? '(no email)',
      subtitle: [shortDate(submittedAt), locale === 'ar' ? 'Arabic' : locale === 'en' ? 'English' : locale]
        .filter(Boolean)
        .join(' · '),
    }),
  },
});

export const submissionTypes = [faqQuestion, newsletterSignup];
