// The three monthly advisory packages. Prices are in Singapore dollars per month and sit
// just above the FAQ's starting prices (AED 2,500 / 5,000 / 10,000 at about 2.75 AED per SGD).
// Consultation hours are per month (4, 8, 12), the reading used everywhere on the site.
import { ls, lt, lsList } from '../lib.mjs';

export default [
  {
    _id: 'package-starter',
    _type: 'packagePlan',
    key: 'starter',
    name: ls('Starter', 'الأساسية'),
    description: lt(
      'Focused guidance for founders preparing their first UAE entity: the right licence, a clear setup timeline and answers when you need them.',
      'إرشاد مركّز للمؤسسين الذين يستعدون لتأسيس كيانهم الأول في الإمارات: الرخصة المناسبة، وجدول زمني واضح للتأسيس، وإجابات في الوقت الذي تحتاج إليها.',
    ),
    timeCommitment: ls('4 consultation hours per month', '4 ساعات استشارية شهرياً'),
    consultationHours: 4,
    businessReports: 1,
    keyAreas: lsList([
      ['Market entry assessment', 'تقييم دخول السوق'],
      ['Company setup and licensing', 'تأسيس الشركة والترخيص'],
      ['Corporate tax and VAT registration', 'التسجيل في ضريبة الشركات وضريبة القيمة المضافة'],
      ['Bank account preparation', 'التحضير لفتح الحساب المصرفي'],
    ]),
    bestFor: lt(
      'Founders, small teams and international firms testing the UAE before committing a full team.',
      'المؤسسون والفرق الصغيرة والشركات الدولية التي تختبر السوق الإماراتي قبل تخصيص فريق متكامل.',
    ),
    features: lsList([
      ['4 consultation hours per month', '4 ساعات استشارية شهرياً'],
      ['1 business report per month', 'تقرير أعمال واحد شهرياً'],
      ['Free zone or mainland recommendation', 'توصية بالمنطقة الحرة أو البر الرئيسي'],
      ['Setup timeline and document checklist', 'جدول زمني للتأسيس وقائمة بالمستندات المطلوبة'],
      ['Corporate tax and VAT registration guidance', 'إرشاد في التسجيل لضريبة الشركات وضريبة القيمة المضافة'],
      ['Email support with replies within 2 business days', 'دعم عبر البريد الإلكتروني مع الرد خلال يومي عمل'],
    ]),
    priceSgd: 950,
    paymentLink: 'https://buy.stripe.com/bawaba-starter-monthly',
    order: 1,
  },
  {
    _id: 'package-business',
    _type: 'packagePlan',
    key: 'business',
    name: ls('Business', 'الأعمال'),
    description: lt(
      'A dedicated advisor for companies launching in the UAE: setup, go-to-market, first hires and the compliance routine that keeps you in good standing.',
      'مستشار مخصص للشركات التي تنطلق في الإمارات: التأسيس، والوصول إلى السوق، والتعيينات الأولى، وروتين الامتثال الذي يحافظ على وضعك النظامي.',
    ),
    timeCommitment: ls('8 consultation hours per month', '8 ساعات استشارية شهرياً'),
    consultationHours: 8,
    businessReports: 2,
    popularLabel: ls('Most Popular', 'الأكثر طلباً'),
    bestFor: lt(
      'Companies opening a UAE office, hiring their first local team and signing their first customers.',
      'الشركات التي تفتتح مكتباً في الإمارات وتوظّف فريقها المحلي الأول وتوقّع عقودها مع عملائها الأوائل.',
    ),
    features: lsList([
      ['8 consultation hours per month', '8 ساعات استشارية شهرياً'],
      ['Up to 2 business reports per month', 'ما يصل إلى تقريرَي أعمال شهرياً'],
      ['A dedicated advisor', 'مستشار مخصص'],
      ['Everything in Starter', 'جميع مزايا الباقة الأساسية'],
      ['90-day launch and go-to-market plan', 'خطة إطلاق ووصول إلى السوق لأول 90 يوماً'],
      ['Recruitment and visa planning for your first hires', 'تخطيط التوظيف والتأشيرات لموظفيك الأوائل'],
      ['Compliance calendar for tax, licence and visa renewals', 'تقويم امتثال للضرائب وتجديد الرخص والتأشيرات'],
      ['Priority replies within 1 business day', 'أولوية في الرد خلال يوم عمل واحد'],
    ]),
    priceSgd: 1900,
    paymentLink: 'https://buy.stripe.com/bawaba-business-monthly',
    order: 2,
  },
  {
    _id: 'package-enterprise',
    _type: 'packagePlan',
    key: 'enterprise',
    name: ls('Enterprise', 'المؤسسات'),
    description: lt(
      'Senior advisory for established companies building a regional presence: structuring, multi-entity operations, performance management and board-level reporting.',
      'استشارات على مستوى الإدارة العليا للشركات القائمة التي تبني حضوراً إقليمياً: هيكلة الكيانات، وإدارة عمليات متعددة الكيانات، وإدارة الأداء، وتقارير على مستوى مجلس الإدارة.',
    ),
    timeCommitment: ls('12 consultation hours per month', '12 ساعة استشارية شهرياً'),
    consultationHours: 12,
    businessReports: 3,
    bestFor: lt(
      'Established companies and regional headquarters running several entities or expanding across the Gulf.',
      'الشركات القائمة والمقرات الإقليمية التي تدير عدة كيانات أو تتوسع في دول الخليج.',
    ),
    features: lsList([
      ['12 consultation hours per month', '12 ساعة استشارية شهرياً'],
      ['Up to 3 business reports per month', 'ما يصل إلى 3 تقارير أعمال شهرياً'],
      ['Senior partner oversight', 'إشراف مباشر من أحد الشركاء'],
      ['Everything in Business', 'جميع مزايا باقة الأعمال'],
      ['Group structuring across free zone and mainland entities', 'هيكلة المجموعة عبر كيانات المنطقة الحرة والبر الرئيسي'],
      ['Performance framework with quarterly business reviews', 'منظومة لإدارة الأداء مع مراجعات أعمال ربع سنوية'],
      ['Board and investor reporting support', 'دعم إعداد التقارير لمجلس الإدارة والمستثمرين'],
      ['Same-day replies on business days', 'الرد في اليوم نفسه خلال أيام العمل'],
    ]),
    priceSgd: 3800,
    paymentLink: 'https://buy.stripe.com/bawaba-enterprise-monthly',
    order: 3,
  },
];
