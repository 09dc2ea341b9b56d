// FAQ: four categories and their questions. Facts here are fixed: the answers
// must keep them (docs/requirements.md#public-pages): corporate tax 9% above AED 375,000 from 1 June 2023; VAT 5% with registration above
// AED 375,000 of taxable supplies; records kept 5 years; bank account approval 2-6 weeks;
// starting prices AED 2,500 / 5,000 / 10,000 per month; 4 / 8 / 12 consultation hours per month.
import { ls, lt, ref } from '../lib.mjs';

const categories = [
  ['taxesFinance', 'Taxes and Finance', 'الضرائب والمالية'],
  ['operations', 'Operations', 'العمليات'],
  ['services', 'Services', 'الخدمات'],
  ['pricing', 'Pricing', 'الأسعار والباقات'],
].map(([key, en, ar], i) => ({
  _id: `faqCategory-${key}`,
  _type: 'faqCategory',
  key,
  title: ls(en, ar),
  order: i + 1,
}));

const item = (category, name, order, [qEn, qAr], [aEn, aAr]) => ({
  _id: `faqItem-${name}`,
  _type: 'faqItem',
  category: ref(`faqCategory-${category}`),
  question: ls(qEn, qAr),
  answer: lt(aEn, aAr),
  order,
});

const items = [
  // Taxes and finance
  item('taxesFinance', 'corporate-tax-rate', 1, [
    'What is the corporate tax rate in the UAE?',
    'ما نسبة ضريبة الشركات في الإمارات؟',
  ], [
    'Corporate tax applies from 1 June 2023, to financial years starting on or after that date. Taxable income up to AED 375,000 is taxed at 0%, and taxable income above AED 375,000 is taxed at 9%. Qualifying free zone companies can benefit from 0% on their qualifying income if they meet the conditions.',
    'تُطبَّق ضريبة الشركات اعتباراً من 1 يونيو 2023 على السنوات المالية التي تبدأ في هذا التاريخ أو بعده. ويخضع الدخل الخاضع للضريبة حتى 375,000 درهم لنسبة 0%، بينما يخضع ما يزيد على 375,000 درهم لنسبة 9%. ويمكن لشركات المناطق الحرة المؤهلة الاستفادة من نسبة 0% على دخلها المؤهل متى استوفت الشروط.',
  ]),
  item('taxesFinance', 'vat-registration', 2, [
    'When does my company have to register for VAT?',
    'متى يجب على شركتي التسجيل في ضريبة القيمة المضافة؟',
  ], [
    'VAT in the UAE is charged at 5%. Registration is mandatory once your taxable supplies exceed AED 375,000 over the previous 12 months, or are expected to exceed it in the next 30 days. Businesses below that threshold may register voluntarily from AED 187,500, which can help when you pay significant VAT on costs.',
    'تُفرض ضريبة القيمة المضافة في الإمارات بنسبة 5%. ويصبح التسجيل إلزامياً عندما تتجاوز توريداتك الخاضعة للضريبة 375,000 درهم خلال الأشهر الاثني عشر السابقة، أو يُتوقع أن تتجاوزها خلال الأيام الثلاثين التالية. ويمكن للمنشآت التي لم تبلغ هذا الحد التسجيل اختيارياً ابتداءً من 187,500 درهم، وهو ما قد يفيدك إذا كنت تدفع مبالغ كبيرة من ضريبة القيمة المضافة على تكاليفك.',
  ]),
  item('taxesFinance', 'record-keeping', 3, [
    'How long must I keep business records?',
    'ما المدة التي يجب أن أحتفظ خلالها بسجلات الشركة؟',
  ], [
    'Keep your business records, including invoices, ledgers, contracts and bank statements, for 5 years. They must be available if the Federal Tax Authority asks for them, so we recommend organised digital copies from the first month of trading.',
    'احتفظ بسجلات شركتك، بما فيها الفواتير ودفاتر الحسابات والعقود وكشوف الحسابات المصرفية، لمدة 5 سنوات. ويجب أن تكون هذه السجلات متاحة عند طلبها من الهيئة الاتحادية للضرائب، لذا ننصح بحفظ نسخ رقمية منظمة منذ الشهر الأول لمزاولة النشاط.',
  ]),
  item('taxesFinance', 'free-zone-tax', 4, [
    'Do free zone companies pay corporate tax?',
    'هل تدفع شركات المناطق الحرة ضريبة الشركات؟',
  ], [
    'A qualifying free zone company pays 0% corporate tax on qualifying income, for example many transactions with other free zone companies or with customers outside the UAE. Other income is taxed at 9% above AED 375,000. To qualify, the company needs adequate substance in the free zone, audited financial statements and income that meets the rules, so we review your model before you choose a jurisdiction.',
    'تدفع شركة المنطقة الحرة المؤهلة ضريبة شركات بنسبة 0% على دخلها المؤهل، ومن ذلك كثير من المعاملات مع شركات أخرى في المناطق الحرة أو مع عملاء خارج الدولة. أما الدخل الآخر فيخضع لنسبة 9% فيما يزيد على 375,000 درهم. وللتأهل يجب أن يكون للشركة جوهر اقتصادي كافٍ في المنطقة الحرة، وقوائم مالية مدققة، ودخل يستوفي الشروط المحددة، لذا نراجع نموذج أعمالك قبل اختيار جهة الترخيص.',
  ]),

  // Operations
  item('operations', 'bank-account', 1, [
    'How long does it take to open a corporate bank account?',
    'كم يستغرق فتح حساب مصرفي للشركة؟',
  ], [
    'Bank account approval usually takes 2-6 weeks once the bank has a complete application. Timing depends on your shareholders’ profiles, your business activity and how quickly documents and compliance questions are answered. We prepare the file with you and introduce you to banks suited to your activity.',
    'تستغرق الموافقة على الحساب المصرفي عادةً من 2 إلى 6 أسابيع بعد استلام البنك طلباً مكتملاً. وتتوقف المدة على بيانات المساهمين وطبيعة نشاطك التجاري وسرعة تقديم المستندات والرد على استفسارات الامتثال. نُعدّ الملف معك ونعرّفك بالبنوك الأنسب لنشاطك.',
  ]),
  item('operations', 'setup-time', 2, [
    'How long does it take to set up a company?',
    'كم يستغرق تأسيس الشركة؟',
  ], [
    'A free zone licence can often be issued within 1-3 weeks once documents are complete. A mainland company can take longer when the activity needs approvals from other authorities. Attesting documents issued abroad is often the longest step, so we start it first.',
    'يمكن في كثير من الأحيان إصدار رخصة المنطقة الحرة خلال أسبوع إلى 3 أسابيع بعد اكتمال المستندات. وقد يستغرق تأسيس الشركة في البر الرئيسي وقتاً أطول إذا تطلّب النشاط موافقات من جهات أخرى. وغالباً ما يكون توثيق المستندات الصادرة خارج الدولة أطول الخطوات، لذا نبدأ به أولاً.',
  ]),
  item('operations', 'office-space', 3, [
    'Do I need a physical office?',
    'هل أحتاج إلى مكتب فعلي؟',
  ], [
    'It depends on the licence. Many free zones offer flexi-desk or shared-office packages suitable for a small team. Mainland companies need a registered lease, which in Dubai is recorded through Ejari, and the size of your office affects how many employment visas you can obtain.',
    'يعتمد ذلك على نوع الرخصة. فكثير من المناطق الحرة توفر مكاتب مرنة أو مساحات عمل مشتركة تناسب الفرق الصغيرة. أما شركات البر الرئيسي فتحتاج إلى عقد إيجار مسجّل، ويُسجَّل في دبي عبر نظام "إيجاري"، كما تؤثر مساحة المكتب في عدد تأشيرات العمل التي يمكنك الحصول عليها.',
  ]),
  item('operations', 'visas', 4, [
    'Can you arrange visas for founders and employees?',
    'هل يمكنكم إنهاء إجراءات التأشيرات للمؤسسين والموظفين؟',
  ], [
    'Yes. We coordinate investor and employment visas, medical tests, Emirates ID and health insurance, and we track renewal dates for you. We also advise on longer-term options such as the Golden Visa where you may be eligible.',
    'نعم. ننسّق تأشيرات المستثمرين والموظفين والفحوص الطبية والهوية الإماراتية والتأمين الصحي، ونتابع مواعيد التجديد نيابةً عنك. كما نقدّم المشورة حول الخيارات طويلة الأمد مثل الإقامة الذهبية إذا كنت مؤهلاً لها.',
  ]),

  // Services
  item('services', 'what-we-do', 1, [
    'What services does Bawaba Advisory offer?',
    'ما الخدمات التي تقدمها بوابة للاستشارات؟',
  ], [
    'We work across six areas: market entry, business setup, launch strategy, operations, recruitment and performance management. Most clients start with market entry or setup and keep us on a monthly package as the business grows.',
    'نعمل في ستة مجالات: دخول السوق، وتأسيس الشركات، واستراتيجية الإطلاق، والعمليات، والتوظيف، وإدارة الأداء. ويبدأ معظم عملائنا بدخول السوق أو التأسيس، ثم يواصلون العمل معنا ضمن باقة شهرية مع نمو أعمالهم.',
  ]),
  item('services', 'free-zone-or-mainland', 2, [
    'Should I choose a free zone or a mainland company?',
    'هل أختار شركة في المنطقة الحرة أم في البر الرئيسي؟',
  ], [
    'Choose a free zone if you mainly serve international clients or other free zone companies and want 0% corporate tax on qualifying income. Choose the mainland if you will sell directly to UAE customers or government entities. Many groups combine both; we compare the options on cost, tax, visas and market access for your model.',
    'اختر المنطقة الحرة إذا كان معظم عملائك دوليين أو من شركات المناطق الحرة وتريد الاستفادة من ضريبة شركات بنسبة 0% على الدخل المؤهل. واختر البر الرئيسي إذا كنت ستبيع مباشرة للعملاء داخل الدولة أو للجهات الحكومية. وتجمع مجموعات كثيرة بين الخيارين، ونحن نقارن بينهما لنموذج أعمالك من حيث التكلفة والضرائب والتأشيرات والوصول إلى السوق.',
  ]),
  item('services', 'legal-tax-opinions', 3, [
    'Do you give legal or tax opinions?',
    'هل تقدمون آراءً قانونية أو ضريبية رسمية؟',
  ], [
    'No. We are business advisors. When a formal legal opinion, a tax filing or an audit is required, we work alongside licensed law firms, registered tax agents and auditors, brief them on your case and keep the work coordinated.',
    'لا. نحن مستشارو أعمال. وعندما يلزم رأي قانوني رسمي أو تقديم إقرار ضريبي أو تدقيق للحسابات، نعمل بالتنسيق مع مكاتب محاماة مرخّصة ووكلاء ضريبيين معتمدين ومدققي حسابات، فنطلعهم على تفاصيل حالتك ونحرص على تكامل العمل.',
  ]),
  item('services', 'outside-uae', 4, [
    'Do you work with companies based outside the UAE?',
    'هل تعملون مع شركات مقرها خارج الإمارات؟',
  ], [
    'Yes, most of our clients start abroad. Our Singapore office works with companies from Southeast Asia, Australia and East Asia, and our Dubai team handles everything on the ground. Meetings can be held online or in either office.',
    'نعم، فمعظم عملائنا يبدؤون من خارج الدولة. يعمل مكتبنا في سنغافورة مع الشركات القادمة من جنوب شرق آسيا وأستراليا وشرق آسيا، بينما يتولى فريقنا في دبي جميع الإجراءات الميدانية. ويمكن عقد الاجتماعات عبر الإنترنت أو في أيٍّ من المكتبين.',
  ]),

  // Pricing
  item('pricing', 'package-prices', 1, [
    'How much do your advisory packages cost?',
    'كم تبلغ أسعار الباقات الاستشارية؟',
  ], [
    'Our monthly packages start at AED 2,500 per month for Starter, AED 5,000 per month for Business and AED 10,000 per month for Enterprise. The pricing page shows the same packages in Singapore dollars, the currency we bill in. Government, licence and visa fees are paid separately at cost.',
    'تبدأ أسعار باقاتنا الشهرية من 2,500 درهم شهرياً للباقة الأساسية، و5,000 درهم شهرياً لباقة الأعمال، و10,000 درهم شهرياً لباقة المؤسسات. وتعرض صفحة الأسعار الباقات نفسها بالدولار السنغافوري، وهي العملة التي نصدر بها فواتيرنا. أما الرسوم الحكومية ورسوم الرخص والتأشيرات فتُدفع بشكل منفصل بقيمتها الفعلية.',
  ]),
  item('pricing', 'consultation-hours', 2, [
    'How many consultation hours are included?',
    'كم عدد الساعات الاستشارية المشمولة في كل باقة؟',
  ], [
    'Starter includes 4 consultation hours per month, Business 8 consultation hours per month and Enterprise 12 consultation hours per month. Hours cover calls, workshops and document reviews with your advisor, and are allocated per monthly billing period.',
    'تشمل الباقة الأساسية 4 ساعات استشارية شهرياً، وباقة الأعمال 8 ساعات استشارية شهرياً، وباقة المؤسسات 12 ساعة استشارية شهرياً. وتغطي هذه الساعات الاتصالات وورش العمل ومراجعة المستندات مع مستشارك، وتُخصَّص لكل فترة فوترة شهرية.',
  ]),
  item('pricing', 'billing', 3, [
    'How does billing work?',
    'كيف تتم عملية الفوترة؟',
  ], [
    'You subscribe through a secure card payment link and are billed automatically each month. We send a reminder 7 days before each renewal, and your invoices are available in your account.',
    'تشترك عبر رابط دفع آمن بالبطاقة، وتُحصَّل الرسوم تلقائياً كل شهر. نرسل إليك تذكيراً قبل 7 أيام من كل تجديد، وتجد فواتيرك متاحة في حسابك.',
  ]),
  item('pricing', 'change-or-cancel', 4, [
    'Can I change or cancel my package?',
    'هل يمكنني تغيير باقتي أو إلغاؤها؟',
  ], [
    'Yes. A change of package takes effect on your next billing date. If you cancel, your access continues until the end of the current billing period and you will not be charged again. We confirm both by email.',
    'نعم. يسري تغيير الباقة اعتباراً من تاريخ الفوترة التالي. وإذا ألغيت اشتراكك فستستمر في الاستفادة من الخدمة حتى نهاية فترة الفوترة الحالية دون أي رسوم إضافية بعدها. ونؤكد لك التغيير أو الإلغاء عبر البريد الإلكتروني.',
  ]),
];

export default [...categories, ...items];
