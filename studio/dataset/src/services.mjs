// The six advisory services, the four company setup options, and one draft of the
// market-entry service (a changed title) used to test draft preview.
import { ls, lt, lsList } from '../lib.mjs';

const services = [
  {
    _id: 'service-market-entry',
    _type: 'service',
    key: 'marketEntry',
    anchor: 'market-entry',
    icon: 'compass',
    color: 'gold',
    title: ls('Market Entry', 'دخول السوق'),
    summary: lt(
      'Decide whether, where and how to enter the UAE, with a business case your board can approve.',
      'قرّر ما إذا كان دخول السوق الإماراتي مجدياً، وأين وكيف تدخله، بدراسة جدوى يمكن لمجلس إدارتك اعتمادها.',
    ),
    description: lt(
      'Entering the UAE is a series of choices: which emirate, which licensing authority, which legal form and which first customers. We size the opportunity for your product, map competitors and regulatory requirements, compare entry routes on cost, time and control, and turn the result into a budgeted entry plan. You get a clear recommendation and the reasoning behind it, not a stack of generic country reports.',
      'دخول السوق الإماراتي سلسلة من القرارات: أي إمارة، وأي جهة ترخيص، وأي شكل قانوني، ومن هم العملاء الأوائل. نقدّر حجم الفرصة المتاحة لمنتجك، ونرصد المنافسين والمتطلبات التنظيمية، ونقارن مسارات الدخول من حيث التكلفة والوقت ودرجة التحكم، ثم نحوّل النتائج إلى خطة دخول بميزانية محددة. تحصل على توصية واضحة ومبرراتها، لا على كومة من التقارير العامة عن الدولة.',
    ),
    features: lsList([
      ['Market sizing and competitor mapping', 'تقدير حجم السوق ورصد المنافسين'],
      ['Regulatory and licensing assessment for your activity', 'تقييم المتطلبات التنظيمية والترخيص لنشاطك'],
      ['Choice of emirate and licensing authority', 'اختيار الإمارة وجهة الترخيص'],
      ['Entry route comparison: subsidiary, branch or local partner', 'مقارنة مسارات الدخول: شركة تابعة أو فرع أو شريك محلي'],
      ['Budgeted entry plan with milestones', 'خطة دخول بميزانية ومراحل زمنية محددة'],
      ['Introductions to banks, landlords and industry bodies', 'التعريف بالبنوك وملّاك العقارات والجهات القطاعية'],
    ]),
    order: 1,
  },
  {
    _id: 'service-business-setup',
    _type: 'service',
    key: 'businessSetup',
    anchor: 'business-setup',
    icon: 'building',
    color: 'teal',
    title: ls('Business Setup', 'تأسيس الشركات'),
    summary: lt(
      'Form your free zone or mainland company, open the bank account and secure visas without surprises.',
      'أسّس شركتك في المنطقة الحرة أو البر الرئيسي، وافتح حسابك المصرفي، واحصل على التأشيرات دون مفاجآت.',
    ),
    description: lt(
      'We manage incorporation from trade name reservation to the issued trade licence, and then the steps that usually cause delays: attested documents, the corporate bank account, office lease registration and residence visas. One coordinator keeps a single timeline across the licensing authority, the bank and immigration, and tells you early what is needed from you.',
      'نتولّى إجراءات التأسيس من حجز الاسم التجاري حتى إصدار الرخصة التجارية، ثم الخطوات التي تتأخر عادةً: توثيق المستندات، والحساب المصرفي للشركة، وتسجيل عقد إيجار المكتب، وتأشيرات الإقامة. ويتابع منسق واحد جدولاً زمنياً موحداً مع جهة الترخيص والبنك وإدارة الإقامة، ويُعلمك مبكراً بما نحتاج إليه منك.',
    ),
    features: lsList([
      ['Trade name reservation and licence activities', 'حجز الاسم التجاري وتحديد أنشطة الرخصة'],
      ['Free zone or mainland incorporation', 'التأسيس في المنطقة الحرة أو البر الرئيسي'],
      ['Memorandum of association and document attestation', 'عقد التأسيس وتوثيق المستندات'],
      ['Corporate bank account application support', 'دعم طلب فتح الحساب المصرفي للشركة'],
      ['Residence visas and Emirates ID for founders and staff', 'تأشيرات الإقامة والهوية الإماراتية للمؤسسين والموظفين'],
      ['Corporate tax and VAT registration', 'التسجيل في ضريبة الشركات وضريبة القيمة المضافة'],
    ]),
    order: 2,
  },
  {
    _id: 'service-launch-strategy',
    _type: 'service',
    key: 'launchStrategy',
    anchor: 'launch-strategy',
    icon: 'rocket',
    color: 'navy',
    title: ls('Launch Strategy', 'استراتيجية الإطلاق'),
    summary: lt(
      'Position, price and sell to Gulf customers with a focused plan for your first 90 days.',
      'حدّد موقعك وأسعارك وطريقة بيعك لعملاء الخليج بخطة مركّزة لأول 90 يوماً.',
    ),
    description: lt(
      'A licence does not bring customers. We adapt your positioning and pricing to how Gulf buyers compare and decide, choose the channels that reach them, from direct sales and distributors to marketplaces, and prepare bilingual messaging. The result is a 90-day launch plan with a realistic pipeline, a budget and the few measures that show early whether it is working.',
      'الرخصة وحدها لا تجلب العملاء. نكيّف موقع علامتك وتسعيرك مع الطريقة التي يقارن بها المشترون في الخليج ويتخذون قراراتهم، ونختار القنوات التي تصل إليهم، من البيع المباشر والموزعين إلى المنصات الإلكترونية، ونُعدّ رسائل تسويقية باللغتين العربية والإنجليزية. والنتيجة خطة إطلاق لأول 90 يوماً تتضمن قائمة عملاء محتملين واقعية وميزانية وعدداً محدوداً من المؤشرات التي تُظهر مبكراً مدى نجاح الخطة.',
    ),
    features: lsList([
      ['Positioning and pricing for Gulf buyers', 'تحديد الموقع التنافسي والتسعير لمشتري الخليج'],
      ['Channel and distributor strategy', 'استراتيجية القنوات والموزعين'],
      ['Bilingual brand messaging in English and Arabic', 'رسائل العلامة التجارية باللغتين الإنجليزية والعربية'],
      ['90-day launch plan with milestones', 'خطة إطلاق لأول 90 يوماً بمراحل محددة'],
      ['First-customer pipeline and partnership outreach', 'بناء قائمة العملاء الأوائل والتواصل مع الشركاء'],
      ['Launch budget and early performance measures', 'ميزانية الإطلاق ومؤشرات الأداء المبكرة'],
    ]),
    order: 3,
  },
  {
    _id: 'service-operations',
    _type: 'service',
    key: 'operations',
    anchor: 'operations',
    icon: 'cog',
    color: 'emerald',
    title: ls('Operations', 'العمليات'),
    summary: lt(
      'Keep the company compliant and running smoothly: tax filings, renewals, records and processes.',
      'حافظ على امتثال شركتك وسلاسة عملياتها: الإقرارات الضريبية والتجديدات والسجلات والإجراءات.',
    ),
    description: lt(
      'After launch, the work becomes recurring: corporate tax and VAT returns, licence and visa renewals, registers, bookkeeping and the records you must keep. We set up a compliance calendar, processes and reliable local providers, and we review them with you every month so deadlines are met and nothing depends on one person remembering.',
      'بعد الإطلاق يصبح العمل دورياً: إقرارات ضريبة الشركات وضريبة القيمة المضافة، وتجديد الرخص والتأشيرات، والسجلات النظامية، ومسك الدفاتر، والوثائق الواجب الاحتفاظ بها. نُعدّ لك تقويماً للامتثال وإجراءات عمل واضحة ومزوّدي خدمات محليين موثوقين، ونراجعها معك شهرياً حتى تُستوفى المواعيد النهائية ولا يتوقف شيء على ذاكرة شخص واحد.',
    ),
    features: lsList([
      ['Corporate tax and VAT compliance calendar', 'تقويم الامتثال لضريبة الشركات وضريبة القيمة المضافة'],
      ['Licence, lease and visa renewals', 'تجديد الرخص وعقود الإيجار والتأشيرات'],
      ['Bookkeeping and record-keeping standards', 'معايير مسك الدفاتر وحفظ السجلات'],
      ['Ultimate beneficial owner and statutory registers', 'سجل المستفيد الحقيقي والسجلات النظامية'],
      ['Operating policies and approval workflows', 'السياسات التشغيلية ومسارات الاعتماد'],
      ['Selection of accountants, auditors and suppliers', 'اختيار المحاسبين ومدققي الحسابات والموردين'],
    ]),
    order: 4,
  },
  {
    _id: 'service-recruitment',
    _type: 'service',
    key: 'recruitment',
    anchor: 'recruitment',
    icon: 'users',
    color: 'rose',
    title: ls('Recruitment', 'التوظيف'),
    summary: lt(
      'Build your UAE team: structure, salaries, search, contracts, visas and onboarding.',
      'ابنِ فريقك في الإمارات: الهيكل التنظيمي والرواتب والاستقطاب والعقود والتأشيرات والتهيئة.',
    ),
    description: lt(
      'Your first hires in the UAE shape the business for years. We design the initial structure, benchmark salaries and allowances, run searches for key roles and plan Emiratisation where it applies. We prepare employment contracts in line with UAE labour law, coordinate work permits and visas, and set up payroll through the Wage Protection System.',
      'يرسم موظفوك الأوائل في الإمارات ملامح أعمالك لسنوات. نصمّم الهيكل التنظيمي الأولي، ونقارن الرواتب والبدلات بمستويات السوق، ونستقطب المرشحين للمناصب الرئيسية، ونخطط للتوطين حيثما ينطبق. كما نُعدّ عقود العمل وفق قانون العمل الإماراتي، وننسّق تصاريح العمل والتأشيرات، ونجهّز صرف الرواتب عبر نظام حماية الأجور.',
    ),
    features: lsList([
      ['Organisation design and salary benchmarking', 'تصميم الهيكل التنظيمي ومقارنة الرواتب'],
      ['Search and selection for key roles', 'البحث عن المرشحين للمناصب الرئيسية واختيارهم'],
      ['Emiratisation planning', 'التخطيط للتوطين'],
      ['Employment contracts aligned with UAE labour law', 'عقود عمل متوافقة مع قانون العمل الإماراتي'],
      ['Work permits, visas and medical insurance', 'تصاريح العمل والتأشيرات والتأمين الصحي'],
      ['Payroll set-up through the Wage Protection System', 'إعداد الرواتب عبر نظام حماية الأجور'],
    ]),
    order: 5,
  },
  {
    _id: 'service-performance',
    _type: 'service',
    key: 'performance',
    anchor: 'performance',
    icon: 'chart',
    color: 'indigo',
    title: ls('Performance Management', 'إدارة الأداء'),
    summary: lt(
      'Measure what matters with clear targets, monthly reporting and quarterly reviews.',
      'قِس ما يهم فعلاً من خلال أهداف واضحة وتقارير شهرية ومراجعات ربع سنوية.',
    ),
    description: lt(
      'Growth needs a rhythm. We agree a small set of targets with your leadership, build the monthly management report and dashboard that track them, and run quarterly business reviews that compare results with the plan. Where margins or costs drift, we find the cause and agree the corrective action with you.',
      'يحتاج النمو إلى إيقاع منتظم. نتفق مع قيادة شركتك على مجموعة محدودة من الأهداف، ونبني التقرير الإداري الشهري ولوحة المتابعة اللذين يرصدانها، ونعقد مراجعات أعمال ربع سنوية تقارن النتائج بالخطة. وعندما تنحرف الهوامش أو التكاليف، نحدد السبب ونتفق معك على الإجراء التصحيحي.',
    ),
    features: lsList([
      ['Targets and KPI framework', 'منظومة الأهداف ومؤشرات الأداء الرئيسية'],
      ['Monthly management reports and dashboards', 'تقارير إدارية شهرية ولوحات متابعة'],
      ['Quarterly business reviews', 'مراجعات أعمال ربع سنوية'],
      ['Cost, margin and cash-flow analysis', 'تحليل التكاليف والهوامش والتدفقات النقدية'],
      ['Team objectives and appraisal structure', 'أهداف الفريق وآلية تقييم الأداء'],
      ['Board and investor reporting', 'التقارير المقدمة لمجلس الإدارة والمستثمرين'],
    ]),
    order: 6,
  },
];

const setupOptions = [
  {
    _id: 'setup-freeZone',
    _type: 'companySetupOption',
    key: 'freeZone',
    title: ls('Free Zone Establishment', 'التأسيس في المنطقة الحرة'),
    description: lt(
      'Full foreign ownership, fast incorporation and flexible office options, with 0% corporate tax on qualifying income for qualifying free zone companies. Well suited to international trade, services and holding structures; trading directly with the UAE mainland usually needs a distributor or an additional licence.',
      'تملّك أجنبي كامل وتأسيس سريع وخيارات مكتبية مرنة، مع ضريبة شركات بنسبة 0% على الدخل المؤهل لشركات المناطق الحرة المؤهلة. يناسب التجارة الدولية والخدمات وهياكل الشركات القابضة، أما التعامل المباشر مع السوق المحلي في البر الرئيسي فيتطلب عادةً موزعاً أو رخصة إضافية.',
    ),
    order: 1,
  },
  {
    _id: 'setup-mainland',
    _type: 'companySetupOption',
    key: 'mainland',
    title: ls('Mainland Company', 'شركة في البر الرئيسي'),
    description: lt(
      'Licensed by the emirate’s economic department, a mainland company can trade anywhere in the UAE and bid for government contracts. Most commercial and industrial activities now allow 100% foreign ownership; a registered office lease is required.',
      'تُرخَّص الشركة في البر الرئيسي من دائرة الاقتصاد في الإمارة المعنية، ويحق لها ممارسة نشاطها في أي مكان بالدولة والتقدم للعقود الحكومية. وتسمح معظم الأنشطة التجارية والصناعية اليوم بالتملّك الأجنبي الكامل، مع اشتراط عقد إيجار مكتب مسجّل.',
    ),
    order: 2,
  },
  {
    _id: 'setup-branchOffice',
    _type: 'companySetupOption',
    key: 'branchOffice',
    title: ls('Branch Office', 'فرع لشركة أجنبية'),
    description: lt(
      'An extension of your existing foreign company, carrying the parent’s name and liability. A branch suits firms that want a UAE presence without a new legal entity; the parent company’s documents must be attested and it remains responsible for the branch’s obligations.',
      'امتداد لشركتك الأجنبية القائمة يحمل اسمها وتتحمل الشركة الأم مسؤوليته. يناسب الفرع الشركات التي تريد حضوراً في الإمارات دون إنشاء كيان قانوني جديد، مع ضرورة توثيق مستندات الشركة الأم التي تبقى مسؤولة عن التزامات الفرع.',
    ),
    order: 3,
  },
  {
    _id: 'setup-llc',
    _type: 'companySetupOption',
    key: 'llc',
    title: ls('LLC Setup', 'تأسيس شركة ذات مسؤولية محدودة'),
    description: lt(
      'The limited liability company is the most common vehicle for operating businesses in the UAE: shareholders’ liability is limited to their capital, ownership can be shared among partners, and the company can hold property, employ staff and sign contracts in its own name.',
      'الشركة ذات المسؤولية المحدودة هي الشكل الأكثر شيوعاً لممارسة الأعمال في الإمارات: تقتصر مسؤولية الشركاء على حصصهم في رأس المال، ويمكن توزيع الملكية بين عدة شركاء، ويحق للشركة تملّك الأصول وتوظيف العاملين وإبرام العقود باسمها.',
    ),
    order: 4,
  },
];

// A draft of the market-entry service with a changed title, to test draft preview.
const marketEntry = services[0];
const marketEntryDraft = {
  ...structuredClone(marketEntry),
  _id: 'drafts.service-market-entry',
  title: ls('UAE Market Entry Strategy', 'استراتيجية دخول السوق الإماراتي'),
};

export default [...services, ...setupOptions, marketEntryDraft];
