// Blog: the six categories, the eleven tags and the published posts.
// Each post lives in ./blog/*.mjs (that folder is not scanned by the builder itself).
import { ls, lt, slug } from '../lib.mjs';
import freeZoneVsMainland from './blog/free-zone-vs-mainland.mjs';
import corporateTax from './blog/corporate-tax.mjs';
import bankAccount from './blog/bank-account.mjs';
import dubaiVsAbuDhabiTech from './blog/dubai-vs-abu-dhabi-tech.mjs';
import vatRegistration from './blog/vat-registration.mjs';
import hiringAndVisas from './blog/hiring-and-visas.mjs';
import singaporeToUae from './blog/singapore-to-uae.mjs';
import recordKeeping from './blog/record-keeping.mjs';
import growthOutlook from './blog/growth-outlook.mjs';

const category = (s, title, description) => ({
  _id: `blogCategory-${s}`,
  _type: 'blogCategory',
  slug: slug(s),
  title: ls(...title),
  description: lt(...description),
});

const tag = (s, title) => ({ _id: `blogTag-${s}`, _type: 'blogTag', slug: slug(s), title: ls(...title) });

export const categories = [
  category('business', ['Business', 'الأعمال'], [
    'Setting up and running a company in the UAE: structures, licensing, banking and day-to-day operations.',
    'تأسيس الشركات وإدارتها في الإمارات: الهياكل القانونية والتراخيص والخدمات المصرفية والعمليات اليومية.',
  ]),
  category('strategy', ['Strategy', 'الاستراتيجية'], [
    'Launch plans, team building and the decisions that shape a company\'s first years in the region.',
    'خطط الإطلاق وبناء الفرق والقرارات التي ترسم ملامح السنوات الأولى للشركة في المنطقة.',
  ]),
  category('finance', ['Finance', 'المالية'], [
    'Corporate tax, VAT, accounting and cash management for companies operating in the UAE.',
    'ضريبة الشركات وضريبة القيمة المضافة والمحاسبة وإدارة السيولة للشركات العاملة في الإمارات.',
  ]),
  category('legal', ['Legal & Compliance', 'الشؤون القانونية والامتثال'], [
    'Regulations, record keeping and compliance obligations explained in plain language.',
    'الأنظمة وحفظ السجلات والتزامات الامتثال بلغة واضحة ومبسّطة.',
  ]),
  category('technology', ['Technology', 'التكنولوجيا'], [
    'The UAE technology ecosystem: where to base a startup, funding, talent and support programmes.',
    'منظومة التكنولوجيا في الإمارات: أين تؤسس شركتك الناشئة، والتمويل، والكفاءات، وبرامج الدعم.',
  ]),
  category('market_insights', ['Market Insights', 'رؤى السوق'], [
    'Our reading of the UAE economy and of the opportunities it offers companies from Asia, Europe and beyond.',
    'قراءتنا للاقتصاد الإماراتي وللفرص التي يتيحها للشركات القادمة من آسيا وأوروبا وغيرها.',
  ]),
];

export const tags = [
  tag('uae', ['UAE', 'الإمارات']),
  tag('dubai', ['Dubai', 'دبي']),
  tag('abu_dhabi', ['Abu Dhabi', 'أبوظبي']),
  tag('business_setup', ['Business Setup', 'تأسيس الشركات']),
  tag('free_zone', ['Free Zone', 'المناطق الحرة']),
  tag('taxation', ['Taxation', 'الضرائب']),
  tag('investment', ['Investment', 'الاستثمار']),
  tag('entrepreneurship', ['Entrepreneurship', 'ريادة الأعمال']),
  tag('technology', ['Technology', 'التكنولوجيا']),
  tag('finance', ['Finance', 'التمويل والمالية']),
  tag('regulations', ['Regulations', 'الأنظمة واللوائح']),
];

export const posts = [
  freeZoneVsMainland,
  corporateTax,
  bankAccount,
  dubaiVsAbuDhabiTech,
  vatRegistration,
  hiringAndVisas,
  singaporeToUae,
  recordKeeping,
  growthOutlook,
];

export default [...categories, ...tags, ...posts];
