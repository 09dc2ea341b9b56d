import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORM_KEYS } from './fields';
import { faqQuestionSchema, validateFaqQuestion, validateNewsletter } from './validation';

const valid = {
  name: '  Layla Haddad ',
  email: ' layla@example.ae ',
  phone: '+971 50-123 4567',
  question: 'How long does a free zone licence take?',
};

describe('FAQ question form', () => {
  it('accepts a complete form and trims the values', () => {
    expect(validateFaqQuestion(valid)).toEqual({
      success: true,
      data: {
        name: 'Layla Haddad',
        email: 'layla@example.ae',
        phone: '+971 50-123 4567',
        question: 'How long does a free zone licence take?',
      },
    });
  });

  it('reads FormData as well as plain objects', () => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(valid)) fd.set(k, v);
    expect(validateFaqQuestion(fd).success).toBe(true);
  });

  it('an empty form is incomplete, with a message for each field', () => {
    expect(validateFaqQuestion({})).toEqual({
      success: false,
      formError: { titleKey: 'forms:incompleteTitle', messageKey: 'forms:incomplete' },
      fieldErrors: {
        name: 'forms:required',
        email: 'forms:required',
        phone: 'forms:phoneRequired',
        question: 'forms:required',
      },
    });
  });

  it.each(['name', 'email', 'phone', 'question'] as const)(
    'a missing or blank %s makes the form incomplete',
    (field) => {
      for (const blank of ['', '   ', undefined]) {
        const result = validateFaqQuestion({ ...valid, [field]: blank });
        expect(result.success).toBe(false);
        if (result.success) return;
        expect(result.formError).toEqual({ titleKey: FORM_KEYS.incompleteTitle, messageKey: FORM_KEYS.incomplete });
        expect(Object.keys(result.fieldErrors)).toEqual([field]);
        expect(result.fieldErrors[field]).toBe(field === 'phone' ? 'forms:phoneRequired' : 'forms:required');
      }
    },
  );

  it('non-string values (a file) count as missing', () => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(valid)) fd.set(k, v);
    fd.set('question', new Blob(['x']), 'q.txt');
    const result = validateFaqQuestion(fd);
    expect(result).toMatchObject({ success: false, fieldErrors: { question: 'forms:required' } });
  });

  it.each([
    ['+971501234567'],
    ['+971 50 123 4567'],
    ['+971-50-123-4567'],
    ['+44 (20) 7946 0958'],
    ['+1.415.555.0100'],
    ['+65 6123 4567'],
    [' +٩٧١ ٥٠ ١٢٣ ٤٥٦٧ '],
    ['+۹۷۱۵۰۱۲۳۴۵۶۷'],
    ['(+971) 50 123 4567'],
  ])('accepts the phone %j', (phone) => {
    const result = validateFaqQuestion({ ...valid, phone });
    expect(result.success).toBe(true);
    if (result.success) expect(result.data.phone).toMatch(/^\(?\+[\d\s().-]+$/);
  });

  it('stores Arabic-Indic phone digits as ASCII', () => {
    const result = validateFaqQuestion({ ...valid, phone: '+٩٧١ ٥٠ ١٢٣ ٤٥٦٧' });
    expect(result).toMatchObject({ success: true, data: { phone: '+971 50 123 4567' } });
  });

  it.each([['0501234567'], ['971501234567'], ['00971501234567'], ['(971) 50 123 4567'], ['phone: +971 50']])(
    'asks for the country code when the phone %j does not start with +',
    (phone) => {
      expect(validateFaqQuestion({ ...valid, phone })).toEqual({
        success: false,
        formError: { titleKey: 'forms:invalidTitle', messageKey: 'forms:phoneCountryCode' },
        fieldErrors: { phone: 'forms:phoneCountryCode' },
      });
    },
  );

  it.each([
    ['+'],
    ['+ 971 50'],
    ['+971'],
    ['+12345'],
    ['+971 50 abc 4567'],
    ['+1234567890123456'],
    ['+971/50/1234567'],
  ])('rejects the malformed phone %j', (phone) => {
    expect(validateFaqQuestion({ ...valid, phone })).toMatchObject({
      success: false,
      fieldErrors: { phone: 'forms:phoneInvalid' },
    });
  });

  it.each([['layla'], ['layla@'], ['@example.com'], ['layla@example'], ['la yla@example.com'], ['layla@@example.com']])(
    'rejects the email %j',
    (email) => {
      expect(validateFaqQuestion({ ...valid, email })).toEqual({
        success: false,
        formError: { titleKey: 'forms:invalidTitle', messageKey: 'forms:invalidEmail' },
        fieldErrors: { email: 'forms:invalidEmail' },
      });
    },
  );

  it('caps the lengths', () => {
    const result = validateFaqQuestion({ ...valid, name: 'x'.repeat(201), question: 'q'.repeat(5001) });
    expect(result).toMatchObject({
      success: false,
      fieldErrors: { name: 'forms:tooLong', question: 'forms:tooLong' },
    });
    expect(validateFaqQuestion({ ...valid, question: 'q'.repeat(5000) }).success).toBe(true);
  });

  it('reports every invalid field at once, the first message of each', () => {
    const result = validateFaqQuestion({ name: 'A', email: 'nope', phone: '050', question: 'Q?' });
    expect(result).toMatchObject({
      success: false,
      fieldErrors: { email: 'forms:invalidEmail', phone: 'forms:phoneCountryCode' },
    });
  });

  it('ignores extra fields', () => {
    const result = faqQuestionSchema.safeParse({ ...valid, admin: true });
    expect(result.success && Object.keys(result.data)).toEqual(['name', 'email', 'phone', 'question']);
  });
});

describe('newsletter form', () => {
  it('accepts a valid address, trimmed', () => {
    expect(validateNewsletter({ email: '  Omar@Firm.AE ' })).toEqual({
      success: true,
      data: { email: 'Omar@Firm.AE' },
    });
  });

  it.each([[''], ['   '], ['omar'], ['omar@'], ['omar@firm'], [`${'a'.repeat(250)}@firm.ae`]])(
    'rejects %j with "Invalid email - Please enter a valid email address."',
    (email) => {
      expect(validateNewsletter({ email })).toEqual({
        success: false,
        formError: { titleKey: 'forms:invalidEmailTitle', messageKey: 'forms:invalidEmail' },
        fieldErrors: { email: 'forms:invalidEmail' },
      });
    },
  );

  it('rejects a missing field', () => {
    expect(validateNewsletter(new FormData()).success).toBe(false);
  });
});

// ---------------------------------------------------------------- locale files

const locales = path.resolve(__dirname, '../../../public/locales');
function flat(lng: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (o: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(o)) {
      if (v && typeof v === 'object') walk(v as Record<string, unknown>, `${prefix}${k}.`);
      else out.set(prefix + k, String(v));
    }
  };
  walk(JSON.parse(readFileSync(path.join(locales, lng, 'forms.json'), 'utf8')), '');
  return out;
}

describe('forms.json', () => {
  const en = flat('en');
  const ar = flat('ar');

  it('has a text for every message key, in both languages', () => {
    for (const key of Object.values(FORM_KEYS)) {
      const k = key.replace(/^forms:/, '');
      expect(en.get(k), key).toBeTruthy();
      expect(ar.get(k), key).toBeTruthy();
    }
  });

  it('has the same keys in en and ar, Arabic differing from English, same placeholders', () => {
    expect([...ar.keys()].sort()).toEqual([...en.keys()].sort());
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [key, value] of en) {
      expect(ar.get(key), key).toBeTruthy();
      if (value.length > 3) expect(ar.get(key), key).not.toBe(value);
      expect(vars(ar.get(key) ?? ''), key).toEqual(vars(value));
    }
  });

  it('holds the required texts', () => {
    expect(en.get('incompleteTitle')).toBe('Incomplete Form');
    expect(en.get('incomplete')).toBe('Please fill in all fields to submit your question.');
    expect(en.get('phoneRequired')).toBe('Phone number is required');
    expect(en.get('phoneCountryCode')).toBe('Please include your (+country code)');
    expect(en.get('invalidEmailTitle')).toBe('Invalid email');
    expect(en.get('invalidEmail')).toBe('Please enter a valid email address.');
    expect(en.get('submissionErrorTitle')).toBe('Submission Error');
    expect(en.get('submissionError')).toBe('There was an error submitting your question. Please try again later.');
    expect(en.get('faq.phoneLabel')).toBe('Phone (with country code)');
    expect(en.get('faq.questionLabel')).toBe('Your question');
    expect(en.get('faq.submit')).toBe('Submit Question');
    expect(en.get('faq.askAnother')).toBe('Ask another question');
    expect(en.get('newsletter.emailLabel')).toBe('Email address');
    expect(en.get('newsletter.subscribe')).toBe('Subscribe');
    expect(en.get('newsletter.subscribed')).toBe('Subscribed');
  });
});

describe('clean data: controls and bidi overrides never reach the store', () => {
  it('removes them from one-line fields and keeps line breaks in the question', async () => {
    const { validateFaqQuestion } = await import('./validation');
    const result = validateFaqQuestion({
      name: 'Layla\u0000 Haddad\u202Efdp.exe',
      email: 'layla@example.com',
      phone: '+971 50 123 4567',
      question: 'First line\r\nSecond\u0007 line\u2066',
    });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.name).toBe('Layla Haddad fdp.exe');
    expect(result.data.question).toBe('First line\nSecond line');
  });

  it('a name made only of control characters is empty, so it is required', async () => {
    const { validateFaqQuestion } = await import('./validation');
    const result = validateFaqQuestion({
      name: '\u0000\u202E\u0001',
      email: 'a@example.com',
      phone: '+971 50 123 4567',
      question: 'Q?',
    });
    expect(result.success).toBe(false);
  });
});
