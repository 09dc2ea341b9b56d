import { readFileSync } from 'node:fs';
import path from 'node:path';
import { groupProblems, validateSchema } from '@sanity/schema/_internal';
import { describe, expect, it } from 'vitest';
import { documentTypeNames, schemaTypes, typesWithLocaleFields } from './index';
import { ARABIC_MISSING_MESSAGE } from './objects/locale';
import { compiledSchema, describeMarkers, validateOffline } from './validate-offline';

type Problem = { severity: string; message: string; helpId?: string };
type ProblemGroup = { path: Array<{ kind: string; type?: string; name?: string }>; problems: Problem[] };

/** Schema problems at a given severity, one readable line each. */
function schemaProblems(types: unknown[], severity: 'error' | 'warning'): string[] {
  const groups = groupProblems(validateSchema(types).getTypes()) as unknown as ProblemGroup[];
  return groups.flatMap((group) =>
    group.problems
      .filter((problem) => problem.severity === severity)
      .map(
        (problem) =>
          `${group.path.map((segment) => segment.name ?? segment.type ?? segment.kind).join(' > ')}: ${problem.message}`,
      ),
  );
}

describe('schema validity (validateSchema + groupProblems)', () => {
  it('has no errors', () => {
    const errors = schemaProblems(schemaTypes, 'error');
    if (errors.length) console.error(`Schema errors:\n${errors.join('\n')}`);
    expect(errors).toEqual([]);
  });

  it('has no warnings either', () => {
    const warnings = schemaProblems(schemaTypes, 'warning');
    if (warnings.length) console.warn(`Schema warnings:\n${warnings.join('\n')}`);
    expect(warnings).toEqual([]);
  });

  it('would fail on a broken field (the check is real)', () => {
    const broken = schemaTypes.map((type) =>
      type.name === 'office' && 'fields' in type
        ? { ...type, fields: [...(type.fields as object[]), { name: 'oops', type: 'noSuchType' }] }
        : type,
    );
    expect(schemaProblems(broken, 'error').join('\n')).toMatch(/noSuchType/);
  });
});

// ---------------------------------------------------------------------------------------------
// The contract: docs/content-model.md names every type and field.

const contract = readFileSync(path.resolve(__dirname, '../docs/content-model.md'), 'utf8');

/**
 * Rows of the markdown tables whose first cell is a backticked type name, with the header of
 * their table: document tables are the ones with an `_id` column.
 */
function contractRows(): Map<string, { cells: string[]; isDocument: boolean }> {
  const rows = new Map<string, { cells: string[]; isDocument: boolean }>();
  let header: string[] = [];
  for (const line of contract.split('\n')) {
    if (!line.startsWith('|')) {
      header = [];
      continue;
    }
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (header.length === 0) {
      header = cells;
      continue;
    }
    const name = /^`([A-Za-z]+)`/.exec(cells[0])?.[1];
    if (name) rows.set(name, { cells: cells.slice(1), isDocument: header.includes('`_id`') });
  }
  return rows;
}

/**
 * Top-level field names in a fields cell: the leading identifier of each backticked chunk.
 * When the cell writes fields as `name: type`, other backticked words (enum values) are skipped.
 */
function fieldNamesOf(cell: string): string[] {
  const chunks = [...cell.matchAll(/`([^`]*)`/g)].map((match) => match[1]);
  const typed = chunks.filter((chunk) => /^[A-Za-z_]\w*\??:/.test(chunk));
  return (typed.length ? typed : chunks)
    .map((chunk) => /^([A-Za-z_]\w*)/.exec(chunk)?.[1])
    .filter((name): name is string => !!name && name !== '_key');
}

/** Names inside `field: { a: T, b: T (comment, with commas) }` in a fields cell. */
function nestedFieldNames(cell: string, field: string): string[] {
  const chunk = [...cell.matchAll(/`([^`]*)`/g)].map((match) => match[1]).find((text) => text.startsWith(`${field}:`));
  const inner = chunk ? /\{(.*)\}/.exec(chunk.replace(/\([^()]*\)/g, ''))?.[1] : undefined;
  if (!inner) return [];
  return inner
    .split(',')
    .map((part) => /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(part)?.[1])
    .filter((name): name is string => !!name && name !== '_key');
}

type FieldDef = { name: string; type: string; fields?: FieldDef[]; of?: Array<{ type: string; fields?: FieldDef[] }> };
const definitions = new Map<string, FieldDef>(
  schemaTypes.map((type) => [type.name as string, type as unknown as FieldDef]),
);
const fieldsOf = (typeName: string) => (definitions.get(typeName)?.fields ?? []).map((field) => field.name);
const field = (typeName: string, name: string) => definitions.get(typeName)?.fields?.find((f) => f.name === name);

describe('schema follows docs/content-model.md', () => {
  const rows = contractRows();
  const documentRows = [...rows.entries()]
    .filter(([, row]) => row.isDocument)
    .map(([name, row]) => [name, row.cells] as [string, string[]]);

  it('the contract parses (guards the parser itself)', () => {
    expect(documentRows.map(([name]) => name)).toEqual(
      expect.arrayContaining(['siteSettings', 'office', 'homePage', 'blogPost', 'indicator']),
    );
    expect(documentRows.length).toBeGreaterThanOrEqual(17);
  });

  it('defines every document type the contract names, as a document', () => {
    const missing = documentRows.map(([name]) => name).filter((name) => !documentTypeNames.includes(name));
    expect(missing).toEqual([]);
  });

  it('defines no document type the contract does not name', () => {
    const named = new Set(documentRows.map(([name]) => name));
    expect(documentTypeNames.filter((name) => !named.has(name))).toEqual([]);
  });

  it.each(documentRows)('%s has exactly the contract fields', (typeName, cells) => {
    expect(fieldsOf(typeName).sort()).toEqual(fieldNamesOf(cells[1]).sort());
  });

  it('nested objects have the contract fields', () => {
    const cellOf = (typeName: string) => rows.get(typeName)?.cells[1] ?? '';
    const nested = (typeName: string, name: string) => (field(typeName, name)?.fields ?? []).map((f) => f.name).sort();
    expect(nested('homePage', 'hero')).toEqual(nestedFieldNames(cellOf('homePage'), 'hero').sort());
    expect(nested('homePage', 'servicesIntro')).toEqual(nestedFieldNames(cellOf('homePage'), 'servicesIntro').sort());
    expect(nested('homePage', 'strategyCta')).toEqual(nestedFieldNames(cellOf('homePage'), 'strategyCta').sort());
    expect(nested('caseStudy', 'testimonial')).toEqual(nestedFieldNames(cellOf('caseStudy'), 'testimonial').sort());
    const valueItem = field('aboutPage', 'values')?.of?.[0];
    expect((valueItem?.fields ?? []).map((f) => f.name).sort()).toEqual(
      nestedFieldNames(cellOf('aboutPage'), 'values').sort(),
    );
    expect(nested('homePage', 'hero').length).toBe(7);
  });

  it('has the translation objects with en and ar, and the shared objects', () => {
    for (const name of ['localeString', 'localeText', 'localeBlockContent']) {
      expect(rows.has(name)).toBe(true);
      expect(fieldsOf(name)).toEqual(['en', 'ar']);
    }
    expect(fieldsOf('seo')).toEqual(['title', 'description', 'image']);
    expect(fieldsOf('navLink')).toEqual(['label', 'href', 'icon']);
    // localizedImage is an `image` field with a localeString alt (stored as _type "image")
    const logo = field('siteSettings', 'logo');
    expect(logo?.type).toBe('image');
    expect(logo?.fields?.map((f) => [f.name, f.type])).toEqual([['alt', 'localeString']]);
  });

  it('uses the field types the contract gives', () => {
    const cell = rows.get('blogPost')?.cells[1] ?? '';
    for (const chunk of [...cell.matchAll(/`(\w+): (\w+)(\[\])?`/g)]) {
      const [, name, type, isArray] = chunk;
      const def = field('blogPost', name);
      if (isArray) expect(def?.type, name).toBe('array');
      else if (type === 'localizedImage') expect(def?.type, name).toBe('image');
      else if (type.startsWith('reference')) expect(def?.type, name).toBe('reference');
      else expect(def?.type, name).toBe(type);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Behaviour: validate documents the way the Studio does.

const ls = (en?: string, ar?: string) => ({ _type: 'localeString', en, ar });
const lt = (en?: string, ar?: string) => ({ _type: 'localeText', en, ar });
const item = (key: string, en: string, ar: string) => ({ _key: key, ...ls(en, ar) });

async function markers(document: Record<string, unknown>) {
  return describeMarkers(await validateOffline(document));
}

const validCaseStudy = {
  _id: 'caseStudy-tech-startup-dubai',
  _type: 'caseStudy',
  key: 'techStartup',
  slug: { _type: 'slug', current: 'tech-startup-dubai' },
  title: ls('From idea to licence', 'من الفكرة إلى الرخصة'),
  excerpt: lt('A SaaS founder set up in Dubai.', 'مؤسس شركة برمجيات أسس أعماله في دبي.'),
  client: ls('A SaaS startup', 'شركة ناشئة'),
  industry: ls('Technology', 'التقنية'),
  location: ls('Dubai, UAE', 'دبي، الإمارات'),
  challenge: lt('Choosing a free zone.', 'اختيار المنطقة الحرة.'),
  solution: lt('A shortlist and a plan.', 'قائمة مختصرة وخطة.'),
  results: [
    item('a', 'One', 'واحد'),
    item('b', 'Two', 'اثنان'),
    item('c', 'Three', 'ثلاثة'),
    item('d', 'Four', 'أربعة'),
  ],
  order: 1,
};

describe('validation rules behave as editors need', () => {
  it('accepts a complete, translated document', async () => {
    expect(await markers(validCaseStudy)).toEqual([]);
  });

  it('requires the English of a required field (error) and warns on missing Arabic', async () => {
    const result = await markers({
      ...validCaseStudy,
      title: ls(undefined, 'عنوان'),
      client: ls('A SaaS startup', ''),
    });
    expect(result).toContain('error title.en: Required');
    expect(result).toContain(`warning client.ar: ${ARABIC_MISSING_MESSAGE}`);
    expect(result.filter((line) => line.startsWith('error'))).toEqual(['error title.en: Required']);
  });

  it('treats a missing required localized object as missing English', async () => {
    const { title: _omit, ...untitled } = validCaseStudy;
    expect(await markers(untitled)).toContain('error title.en: Required');
  });

  it('does not run nested rules on an empty optional object', async () => {
    expect(await markers({ ...validCaseStudy, seo: undefined, testimonial: undefined })).toEqual([]);
  });

  it('needs exactly 4 case-study results', async () => {
    const three = await markers({ ...validCaseStudy, results: validCaseStudy.results.slice(0, 3) });
    expect(three.some((line) => line.startsWith('error results:'))).toBe(true);
    const five = await markers({ ...validCaseStudy, results: [...validCaseStudy.results, item('e', 'Five', 'خمسة')] });
    expect(five.some((line) => line.startsWith('error results:'))).toBe(true);
  });

  it('rejects values outside the enum lists', async () => {
    const result = await markers({ ...validCaseStudy, key: 'somethingElse' });
    expect(result.some((line) => line.startsWith('error key:'))).toBe(true);
    const indicator = {
      _id: 'indicator-x',
      _type: 'indicator',
      category: ls('Connectivity', 'الربط'),
      metric: ls('Air destinations', 'وجهات جوية'),
      value: ls('240+', '+240'),
      trend: 'skyrocketing',
      link: '/services#market-entry',
      linkText: ls('Learn more', 'اعرف المزيد'),
    };
    expect((await markers(indicator)).some((line) => line.startsWith('error trend:'))).toBe(true);
    expect(await markers({ ...indicator, trend: 'rising' })).toEqual([]);
  });

  it('validates slugs: format, and the fixed legal pages', async () => {
    const badSlug = await markers({ ...validCaseStudy, slug: { _type: 'slug', current: 'Tech Startup' } });
    expect(badSlug.some((line) => line.startsWith('error slug:'))).toBe(true);
    const legal = {
      _id: 'legalPage-x',
      _type: 'legalPage',
      title: ls('Refunds', 'الاسترداد'),
      body: {
        _type: 'localeBlockContent',
        en: [
          {
            _type: 'block',
            _key: 'k',
            style: 'normal',
            markDefs: [],
            children: [{ _type: 'span', _key: 's', text: 'Hi', marks: [] }],
          },
        ],
        ar: [
          {
            _type: 'block',
            _key: 'k',
            style: 'normal',
            markDefs: [],
            children: [{ _type: 'span', _key: 's', text: 'مرحبا', marks: [] }],
          },
        ],
      },
    };
    expect(
      (await markers({ ...legal, slug: { _type: 'slug', current: 'refund-policy' } })).some((line) =>
        line.startsWith('error slug:'),
      ),
    ).toBe(true);
    expect(await markers({ ...legal, slug: { _type: 'slug', current: 'cookies-policy' } })).toEqual([]);
  });

  it('validates package prices and links', async () => {
    const plan = {
      _id: 'package-starter',
      _type: 'packagePlan',
      key: 'starter',
      name: ls('Starter', 'المبتدئ'),
      description: lt('For new founders.', 'للمؤسسين الجدد.'),
      consultationHours: 4,
      features: [item('f', 'Monthly call', 'مكالمة شهرية')],
      priceSgd: 1500,
      paymentLink: 'https://buy.example.com/starter',
    };
    expect(await markers(plan)).toEqual([]);
    expect((await markers({ ...plan, priceSgd: -5 })).some((line) => line.startsWith('error priceSgd:'))).toBe(true);
    expect((await markers({ ...plan, priceSgd: 0 })).some((line) => line.startsWith('error priceSgd:'))).toBe(true);
    expect(
      (await markers({ ...plan, paymentLink: 'javascript:alert(1)' })).some((line) =>
        line.startsWith('error paymentLink:'),
      ),
    ).toBe(true);
  });

  it('validates rich-text link annotations', async () => {
    const body = (href: string) => ({
      _type: 'localeBlockContent',
      en: [
        {
          _type: 'block',
          _key: 'b',
          style: 'normal',
          markDefs: [{ _type: 'link', _key: 'l', href }],
          children: [{ _type: 'span', _key: 's', text: 'See', marks: ['l'] }],
        },
      ],
      ar: [
        {
          _type: 'block',
          _key: 'b',
          style: 'normal',
          markDefs: [],
          children: [{ _type: 'span', _key: 's', text: 'انظر', marks: [] }],
        },
      ],
    });
    const doc = (href: string) => ({
      _id: 'legalPage-privacy-policy',
      _type: 'legalPage',
      slug: { _type: 'slug', current: 'privacy-policy' },
      title: ls('Privacy', 'الخصوصية'),
      body: body(href),
    });
    for (const good of [
      '/faq',
      '/services#market-entry',
      'https://example.com',
      'mailto:hello@example.com',
      'tel:+97145550142',
    ]) {
      expect(await markers(doc(good)), good).toEqual([]);
    }
    for (const bad of ['javascript:alert(1)', '//evil.example', 'faq', 'ftp://example.com']) {
      expect(
        (await markers(doc(bad))).some((line) => line.startsWith('error body.en')),
        bad,
      ).toBe(true);
    }
  });

  it('checks the home hero highlight occurs in the headline, per language', async () => {
    const home = (highlightAr: string) => ({
      _id: 'homePage',
      _type: 'homePage',
      hero: {
        headline: ls('Your gateway to the UAE', 'بوابتك إلى الإمارات'),
        highlight: ls('UAE', highlightAr),
        subtitle: lt('We help.', 'نساعد.'),
      },
      servicesIntro: { title: ls('Our services', 'خدماتنا') },
      strategyCta: { title: ls('Plan your entry', 'خطّط لدخولك') },
      testimonialsTitle: ls('What clients say', 'ماذا يقول عملاؤنا'),
      statisticsTitle: ls('The market in numbers', 'السوق بالأرقام'),
      indicatorsTitle: ls('Strategic indicators', 'مؤشرات استراتيجية'),
    });
    expect(await markers(home('الإمارات'))).toEqual([]);
    const wrong = await markers(home('دبي'));
    expect(wrong.some((line) => line.startsWith('error hero.highlight:') && line.includes('Arabic'))).toBe(true);
  });

  it('requires the home page section headings the page cannot do without', async () => {
    const problems = await markers({
      _id: 'homePage',
      _type: 'homePage',
      hero: { headline: ls('Your gateway to the UAE', 'بوابتك إلى الإمارات'), subtitle: lt('We help.', 'نساعد.') },
    });
    for (const field of ['servicesIntro', 'strategyCta', 'testimonialsTitle', 'statisticsTitle', 'indicatorsTitle']) {
      expect(problems, field).toContain(`error ${field}: Required`);
    }
  });

  it('validates contact numbers in site settings', async () => {
    const settings = {
      _id: 'siteSettings',
      _type: 'siteSettings',
      brandName: ls('Bawaba', 'بوابة'),
      contactEmail: 'hello@example.com',
      contactPhone: '+971 4 555 0142',
      whatsappNumber: '971505550142',
      whatsappMessage: lt('Hello', 'مرحبا'),
      bookingWhatsappNumber: '6580551420',
      bookingWhatsappMessage: lt('Hello', 'مرحبا'),
      schedulingUrl: 'https://calendly.com/example/30min',
      headerNavigation: [{ _key: 'h', _type: 'navLink', label: ls('Home', 'الرئيسية'), href: '/' }],
    };
    expect(await markers(settings)).toEqual([]);
    const bad = await markers({
      ...settings,
      whatsappNumber: '+971 50 555 0142',
      contactEmail: 'nope',
      headerNavigation: [{ _key: 'h', _type: 'navLink', label: ls('Home', 'الرئيسية'), href: 'home' }],
    });
    expect(
      bad
        .filter((line) => line.startsWith('error'))
        .map((line) => line.split(':')[0])
        .sort(),
    ).toEqual(['error contactEmail', 'error headerNavigation[_key=="h"].href', 'error whatsappNumber']);
  });
});

describe('Studio configuration derived from the schema', () => {
  it('compiles with every type resolvable', () => {
    const schema = compiledSchema();
    for (const name of documentTypeNames) expect(schema.get(name)?.name).toBe(name);
  });

  it('lists the document types that carry localized fields (for the language filter)', () => {
    const localized = typesWithLocaleFields();
    expect(localized).toEqual(
      expect.arrayContaining(['siteSettings', 'homePage', 'aboutPage', 'blogPost', 'caseStudy', 'office', 'indicator']),
    );
    expect(new Set(localized)).toEqual(new Set(documentTypeNames));
  });

  it("holds no submission types: questions and sign-ups are personal data, kept in the firm's database", () => {
    expect(documentTypeNames).not.toContain('faqQuestion');
    expect(documentTypeNames).not.toContain('newsletterSignup');
  });

  it('gives every Arabic input the right-to-left component, and none to English', () => {
    for (const name of ['localeString', 'localeText', 'localeBlockContent']) {
      const fields = (
        definitions.get(name) as unknown as { fields: Array<{ name: string; components?: { input?: unknown } }> }
      ).fields;
      expect(fields.find((f) => f.name === 'ar')?.components?.input).toBeTypeOf('function');
      expect(fields.find((f) => f.name === 'en')?.components?.input).toBeUndefined();
    }
  });

  it('shows English titles in document lists', () => {
    const schema = compiledSchema();
    for (const name of documentTypeNames) {
      const select = (schema.get(name) as { preview?: { select?: Record<string, string> } }).preview?.select ?? {};
      const usesEnglish = Object.values(select).some((p) => p.endsWith('.en'));
      const fixedTitle = ['homePage', 'aboutPage', 'statistic'].includes(name);
      expect(usesEnglish || fixedTitle, name).toBe(true);
    }
  });
});
