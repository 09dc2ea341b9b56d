// Case studies: four anonymised client engagements (tech startup, manufacturing,
// retail expansion, fintech launch), each with exactly four results and a testimonial.
import { ls, lt, lsList, image, slug } from '../lib.mjs';

const caseStudy = (c) => ({
  _id: `caseStudy-${c.slug}`,
  _type: 'caseStudy',
  key: c.key,
  slug: slug(c.slug),
  title: ls(...c.title),
  excerpt: lt(...c.excerpt),
  client: ls(...c.client),
  industry: ls(...c.industry),
  location: ls(...c.location),
  challenge: lt(...c.challenge),
  solution: lt(...c.solution),
  results: (() => {
    if (c.results.length !== 4) throw new Error(`${c.key}: a case study has exactly four results`);
    return lsList(c.results);
  })(),
  testimonial: {
    quote: lt(...c.testimonial.quote),
    author: ls(...c.testimonial.author),
    position: ls(...c.testimonial.position),
  },
  coverImage: image(...c.cover),
  order: c.order,
  seo: {
    _type: 'seo',
    title: ls(...c.seo.title),
    description: lt(...c.seo.description),
    // seo.image is a plain image (no alt field in the schema).
    image: { _type: 'image', _sanityAsset: image(...c.cover)._sanityAsset },
  },
});

export default [
  caseStudy({
    key: 'techStartup',
    slug: 'tech-startup-dubai-launch',
    order: 1,
    title: ['Launching a Singapore SaaS Company in Dubai in Seven Weeks', 'إطلاق شركة برمجيات سنغافورية في دبي خلال سبعة أسابيع'],
    excerpt: [
      'A Series A analytics company needed a Dubai base to serve a signed regional client. We ran licensing, banking and visas in parallel so the team was trading in seven weeks.',
      'احتاجت شركة تحليلات بيانات في مرحلة التمويل الأولى إلى مقر في دبي لخدمة عميل إقليمي وقّعت معه. فأدرنا الترخيص والحساب المصرفي والتأشيرات بالتوازي حتى بدأ الفريق العمل خلال سبعة أسابيع.',
    ],
    client: ['A Series A SaaS analytics company from Singapore', 'شركة سنغافورية لبرمجيات تحليل البيانات كخدمة في مرحلة التمويل الأولى (Series A)'],
    industry: ['B2B software (SaaS)', 'برمجيات الأعمال كخدمة (SaaS)'],
    location: ['Dubai, UAE', 'دبي، الإمارات'],
    challenge: [
      'The company had signed a letter of intent with a large Gulf retailer, conditional on local invoicing and an on-site team within three months. The founders had no UAE entity, no contacts at local banks and a product team that could not be spared for weeks of paperwork. Previous advice they had received suggested a mainland company, which would have slowed setup without any benefit, since their customers were regional groups rather than local consumers.',
      'وقّعت الشركة خطاب نوايا مع مجموعة تجزئة خليجية كبرى، مشروطاً بإصدار الفواتير محلياً ووجود فريق في الموقع خلال ثلاثة أشهر. ولم يكن لدى المؤسسين كيان في الإمارات ولا علاقات مع البنوك المحلية، كما لم يكن بوسعهم تفريغ فريق المنتج لأسابيع من الإجراءات الورقية. وكانت استشارة سابقة قد أوصتهم بتأسيس شركة في البر الرئيسي، وهو ما كان سيبطئ التأسيس دون فائدة تُذكر، إذ إن عملاءهم مجموعات إقليمية لا مستهلكون محليون.',
    ],
    solution: [
      'We recommended a technology-focused free zone company wholly owned by the Singapore parent, with activity codes covering software licensing and consultancy. The licence application, the banking file and the visa plan were prepared together in the first week. We introduced the founders to two banks with appetite for venture-backed software companies, answered compliance questions within a day, and sequenced visas so that the country lead could sign contracts while the engineers\' permits were processed. Corporate tax registration and a transfer pricing note for services from the parent were in place before the first invoice.',
      'أوصينا بتأسيس شركة في منطقة حرة متخصصة في التكنولوجيا مملوكة بالكامل للشركة الأم في سنغافورة، برموز أنشطة تغطي ترخيص البرمجيات والاستشارات. وجهّزنا طلب الرخصة والملف المصرفي وخطة التأشيرات معاً في الأسبوع الأول. ثم عرّفنا المؤسسين إلى بنكين يُقبلان على شركات البرمجيات المدعومة برأس المال الجريء، وأجبنا عن أسئلة الامتثال خلال يوم واحد، ورتّبنا التأشيرات بحيث يتمكن مدير السوق من توقيع العقود بينما تُستكمل تصاريح المهندسين. واكتمل التسجيل في ضريبة الشركات ومذكرة تسعير المعاملات للخدمات المقدمة من الشركة الأم قبل إصدار الفاتورة الأولى.',
    ],
    results: [
      ['Trade licence issued in 3 weeks', 'إصدار الرخصة التجارية خلال 3 أسابيع'],
      ['Corporate bank account approved in 4 weeks', 'الموافقة على الحساب المصرفي للشركة خلال 4 أسابيع'],
      ['Licensed and trading in Dubai within 7 weeks', 'الحصول على الرخصة وبدء العمل في دبي خلال 7 أسابيع'],
      ['5 residence visas issued in the first quarter', 'إصدار 5 تأشيرات إقامة في الربع الأول'],
    ],
    testimonial: {
      quote: [
        'Bawaba treated the bank account and the visas as part of the launch, not as afterthoughts. We invoiced our first Gulf client on schedule, and the product team never lost a sprint to paperwork.',
        'تعامل فريق بوابة مع الحساب المصرفي والتأشيرات بوصفها جزءاً من الإطلاق لا أموراً ثانوية. فأصدرنا أول فاتورة لعميلنا الخليجي في الموعد المحدد، ولم يخسر فريق المنتج أي دورة عمل بسبب الأوراق.',
      ],
      author: ['Daniel T.', 'دانيال ت.'],
      position: ['Co-founder and CEO', 'الشريك المؤسس والرئيس التنفيذي'],
    },
    cover: ['case-tech-startup.jpg', 'A microchip on a circuit board above a night skyline', 'شريحة إلكترونية على لوحة دوائر فوق أفق مدينة ليلاً'],
    seo: {
      title: ['Case Study: Singapore SaaS Company Launched in Dubai in 7 Weeks', 'دراسة حالة: إطلاق شركة برمجيات سنغافورية في دبي خلال 7 أسابيع'],
      description: [
        'How a Series A SaaS company from Singapore obtained a Dubai free zone licence in 3 weeks, a bank account in 4 and was trading within 7 weeks.',
        'كيف حصلت شركة برمجيات سنغافورية على رخصة منطقة حرة في دبي خلال 3 أسابيع وحساب مصرفي خلال 4 أسابيع وبدأت العمل خلال 7 أسابيع.',
      ],
    },
  }),
  caseStudy({
    key: 'manufacturing',
    slug: 'manufacturing-plant-uae-setup',
    order: 2,
    title: ['Setting Up a Precision Manufacturing Plant Ahead of Schedule', 'إنشاء مصنع للمكونات الدقيقة قبل الموعد المحدد'],
    excerpt: [
      'An engineering manufacturer wanted a UAE plant to serve Gulf and African customers. We compared three industrial zones, managed approvals and recruitment, and the plant was commissioned two months early.',
      'أرادت شركة تصنيع هندسي إنشاء مصنع في الإمارات لخدمة عملائها في الخليج وأفريقيا. فقارنّا بين ثلاث مناطق صناعية، وتولّينا الموافقات والتوظيف، وبدأ المصنع التشغيل قبل موعده بشهرين.',
    ],
    client: ['A family-owned precision components manufacturer from India', 'شركة عائلية هندية لتصنيع المكونات الدقيقة'],
    industry: ['Industrial manufacturing', 'التصنيع الصناعي'],
    location: ['Abu Dhabi, UAE', 'أبوظبي، الإمارات'],
    challenge: [
      'The client supplied machined components to energy and water companies and was losing tenders in the Gulf to competitors with local production. It needed a plant close to a major port, reliable power for heavy machinery and a workforce with specialist skills, all within a capital budget approved by a cautious family board. The management team had never operated outside India and was unsure how land, utilities, customs and labour rules would affect the business case.',
      'كانت الشركة تورّد مكونات مشغولة آلياً لشركات الطاقة والمياه، وتخسر مناقصات في الخليج لصالح منافسين لديهم إنتاج محلي. وكانت بحاجة إلى مصنع قريب من ميناء رئيسي، وإمدادات كهرباء موثوقة للآلات الثقيلة، وقوى عاملة ذات مهارات متخصصة، وكل ذلك ضمن ميزانية رأسمالية أقرّها مجلس عائلي حذر. ولم يسبق لفريق الإدارة العمل خارج الهند، ولم يكن واضحاً لديه كيف ستؤثر قواعد الأراضي والمرافق والجمارك والعمل في الجدوى الاقتصادية.',
    ],
    solution: [
      'We built a comparison of three industrial zones covering land lease terms, power and water tariffs, port access, customs treatment of imported machinery and export routes to the client\'s markets. After the board chose a site, we prepared the industrial licence application, coordinated building and civil defence approvals with the client\'s contractor, and set up customs registration so that equipment could be imported without delay. In parallel we designed the organisation, benchmarked salaries and recruited the plant manager, quality lead and technicians, combining transfers from India with experienced local hires.',
      'أعددنا مقارنة بين ثلاث مناطق صناعية شملت شروط تأجير الأراضي وتعرفة الكهرباء والمياه والوصول إلى الموانئ والمعاملة الجمركية للآلات المستوردة ومسارات التصدير إلى أسواق العميل. وبعد أن اختار المجلس الموقع، جهّزنا طلب الرخصة الصناعية، ونسّقنا موافقات البناء والدفاع المدني مع مقاول العميل، وأنجزنا التسجيل الجمركي ليتسنى استيراد المعدات دون تأخير. وبالتوازي صمّمنا الهيكل التنظيمي، وقارنّا الرواتب بالسوق، واستقطبنا مدير المصنع ومسؤول الجودة والفنيين، جامعين بين موظفين منقولين من الهند وكفاءات محلية ذات خبرة.',
    ],
    results: [
      ['Site selected from 3 shortlisted industrial zones in 6 weeks', 'اختيار الموقع من بين 3 مناطق صناعية مرشحة خلال 6 أسابيع'],
      ['Industrial licence and site approvals secured in 4 months', 'الحصول على الرخصة الصناعية وموافقات الموقع خلال 4 أشهر'],
      ['Plant commissioned 2 months ahead of schedule', 'تشغيل المصنع قبل الموعد المحدد بشهرين'],
      ['Core team of 35 recruited before production start', 'توظيف فريق أساسي من 35 شخصاً قبل بدء الإنتاج'],
    ],
    testimonial: {
      quote: [
        'The zone comparison gave our board the confidence to approve the investment, and their team kept the approvals moving while we installed the equipment. We started production two months earlier than we had planned.',
        'منحت مقارنة المناطق الصناعية مجلسنا الثقة لإقرار الاستثمار، وواصل فريقهم متابعة الموافقات بينما كنا نركّب المعدات. وبدأنا الإنتاج قبل ما خططنا له بشهرين.',
      ],
      author: ['Rajesh M.', 'راجيش م.'],
      position: ['Managing Director', 'المدير العام'],
    },
    cover: ['case-manufacturing.jpg', 'A factory with chimneys, gears and a conveyor of containers', 'مصنع بمداخن وتروس وخط نقل محمّل بالحاويات'],
    seo: {
      title: ['Case Study: Manufacturing Plant in the UAE Commissioned Early', 'دراسة حالة: تشغيل مصنع في الإمارات قبل موعده'],
      description: [
        'How an Indian precision manufacturer chose an industrial zone, secured its industrial licence and commissioned a UAE plant two months ahead of schedule.',
        'كيف اختارت شركة هندية لتصنيع المكونات الدقيقة منطقة صناعية وحصلت على رخصتها الصناعية وشغّلت مصنعها في الإمارات قبل الموعد المحدد بشهرين.',
      ],
    },
  }),
  caseStudy({
    key: 'retailExpansion',
    slug: 'retail-expansion-uae-stores',
    order: 3,
    title: ['Taking a European Retail Brand from Franchise Talks to Three UAE Stores', 'من مفاوضات الامتياز إلى ثلاثة متاجر: توسّع علامة تجزئة أوروبية في الإمارات'],
    excerpt: [
      'A European food and homeware brand was weighing a franchise partner against its own company. We modelled both, set up a mainland company and negotiated the leases behind three stores in twelve months.',
      'كانت علامة أوروبية للأغذية والأدوات المنزلية تفاضل بين شريك امتياز تجاري وتأسيس شركتها الخاصة. فدرسنا الخيارين بالأرقام، وأسسنا شركة في البر الرئيسي، وتفاوضنا على عقود إيجار ثلاثة متاجر خلال اثني عشر شهراً.',
    ],
    client: ['A family-owned Italian food and homeware retailer', 'شركة تجزئة إيطالية عائلية متخصصة في الأغذية والأدوات المنزلية'],
    industry: ['Retail and consumer goods', 'التجزئة والسلع الاستهلاكية'],
    location: ['Dubai and Abu Dhabi, UAE', 'دبي وأبوظبي، الإمارات'],
    challenge: [
      'The brand had received two franchise proposals from regional groups and was tempted by the speed they promised. The owners, however, wanted to protect the brand experience and keep control of pricing and product range. They did not know what it would cost to operate directly, how import and food labelling rules would affect their products, or how to approach mall landlords, who favour tenants with a regional track record.',
      'تلقّت العلامة عرضين للامتياز التجاري من مجموعتين إقليميتين، وأغرتها السرعة التي وعدا بها. لكن المالكين أرادوا الحفاظ على تجربة العلامة والاحتفاظ بالسيطرة على الأسعار وتشكيلة المنتجات. ولم يكونوا يعرفون تكلفة التشغيل المباشر، ولا كيف ستؤثر قواعد الاستيراد وبطاقات بيان المواد الغذائية في منتجاتهم، ولا كيف يتعاملون مع ملاك المراكز التجارية الذين يفضّلون المستأجرين أصحاب السجل الإقليمي.',
    ],
    solution: [
      'We built a five-year model comparing franchise royalties with the margins and costs of a company-operated network, including rent, fit-out, staffing and inventory. The numbers favoured direct operation for the first stores, so we set up a mainland company able to trade and import, registered the products for sale, and arranged a logistics partner for bonded storage. We then shortlisted malls on footfall profile and tenant mix, prepared the brand presentation for leasing teams and negotiated the first lease, including a rent-free fit-out period. Recruitment of store managers and a VAT-ready point-of-sale set-up completed the launch.',
      'أعددنا نموذجاً مالياً لخمس سنوات يقارن رسوم الامتياز بهوامش وتكاليف شبكة متاجر تديرها الشركة بنفسها، بما في ذلك الإيجارات والتجهيز والموظفون والمخزون. وجاءت الأرقام في صالح التشغيل المباشر للمتاجر الأولى، فأسسنا شركة في البر الرئيسي قادرة على البيع والاستيراد، وسجّلنا المنتجات للبيع، واتفقنا مع شريك لوجستي على التخزين في مستودعات جمركية. ثم رشّحنا المراكز التجارية بحسب طبيعة الزوار ومزيج المستأجرين، وأعددنا عرض العلامة لفرق التأجير، وتفاوضنا على عقد الإيجار الأول بما فيه فترة تجهيز معفاة من الإيجار. واكتمل الإطلاق بتوظيف مديري المتاجر وإعداد نظام نقاط بيع جاهز لضريبة القيمة المضافة.',
    ],
    results: [
      ['Mainland company licensed in 5 weeks', 'ترخيص الشركة في البر الرئيسي خلال 5 أسابيع'],
      ['First mall lease signed with a 3-month rent-free fit-out period', 'توقيع أول عقد إيجار في مركز تجاري مع فترة تجهيز معفاة من الإيجار مدتها 3 أشهر'],
      ['3 stores opened in the first 12 months', 'افتتاح 3 متاجر خلال أول 12 شهراً'],
      ['Flagship store profitable from month 9', 'تحقيق المتجر الرئيسي للربحية اعتباراً من الشهر التاسع'],
    ],
    testimonial: {
      quote: [
        'They showed us, with our own numbers, why running the stores ourselves made sense, and then opened the doors that mattered with the mall landlords. Three stores in a year was more than we had dared to plan.',
        'أوضحوا لنا، بأرقامنا نحن، لماذا كانت إدارة المتاجر بأنفسنا خياراً منطقياً، ثم فتحوا لنا الأبواب المهمة لدى ملاك المراكز التجارية. ثلاثة متاجر في عام واحد كانت أكثر مما تجرأنا على التخطيط له.',
      ],
      author: ['Sofia M.', 'صوفيا م.'],
      position: ['Regional Director, Middle East', 'المديرة الإقليمية للشرق الأوسط'],
    },
    cover: ['case-retail-expansion.jpg', 'Three shopfronts with striped awnings and shopping bags', 'ثلاث واجهات متاجر بمظلات مخططة وأكياس تسوق'],
    seo: {
      title: ['Case Study: European Retail Brand Opens 3 UAE Stores in a Year', 'دراسة حالة: علامة تجزئة أوروبية تفتتح 3 متاجر في الإمارات خلال عام'],
      description: [
        'How an Italian food and homeware retailer chose direct operation over franchising, set up a mainland company and opened three UAE stores in twelve months.',
        'كيف اختارت شركة تجزئة إيطالية للأغذية والأدوات المنزلية التشغيل المباشر بدلاً من الامتياز، وأسست شركة في البر الرئيسي، وافتتحت ثلاثة متاجر في الإمارات خلال اثني عشر شهراً.',
      ],
    },
  }),
  caseStudy({
    key: 'fintechLaunch',
    slug: 'fintech-launch-uae',
    order: 4,
    title: ['Launching a Regulated Payments Fintech in the UAE', 'إطلاق شركة تقنية مالية للمدفوعات خاضعة للتنظيم في الإمارات'],
    excerpt: [
      'A European payments company needed a licence, banking partners and a compliance team before it could serve a single merchant. We mapped the regulatory path and built the launch plan around it.',
      'احتاجت شركة أوروبية للمدفوعات إلى ترخيص وشركاء مصرفيين وفريق امتثال قبل أن تخدم أي تاجر. فرسمنا المسار التنظيمي وبنينا خطة الإطلاق حوله.',
    ],
    client: ['A venture-backed payments fintech from Europe', 'شركة تقنية مالية أوروبية للمدفوعات مدعومة برأس المال الجريء'],
    industry: ['Financial technology (payments)', 'التكنولوجيا المالية (المدفوعات)'],
    location: ['Abu Dhabi, UAE', 'أبوظبي، الإمارات'],
    challenge: [
      'The company offered payment acceptance and reconciliation tools to online merchants and had strong demand from UAE businesses. Activities like these are regulated, and the founders faced a choice between several regulatory regimes with different capital, governance and timeline requirements. Local banks were cautious about payment companies, and investors had set a deadline for the first regional revenue. A wrong choice of regime could have cost the company a year.',
      'كانت الشركة تقدم أدوات قبول المدفوعات ومطابقتها للتجار عبر الإنترنت، وتلقى طلباً قوياً من الشركات في الإمارات. غير أن هذه الأنشطة خاضعة للتنظيم، ووجد المؤسسون أنفسهم أمام عدة أطر تنظيمية تختلف في متطلبات رأس المال والحوكمة والمدد الزمنية. وكانت البنوك المحلية متحفظة تجاه شركات المدفوعات، في حين حدّد المستثمرون موعداً نهائياً لتحقيق أولى الإيرادات الإقليمية. وكان الاختيار الخاطئ للإطار التنظيمي كفيلاً بأن يكلّف الشركة عاماً كاملاً.',
    ],
    solution: [
      'We compared the available regulatory routes against the client\'s product, target merchants and funding plan, and recommended establishing in an international financial free zone whose regime fitted a phased launch. With the client\'s legal counsel we prepared the business plan, governance framework and compliance manuals for the application, and recruited the senior compliance and risk roles the regulator expects to see in place. In parallel we approached banks experienced with payment companies for operating and safeguarding accounts, and prepared a go-to-market plan so that merchant onboarding could begin as soon as approval arrived.',
      'قارنّا المسارات التنظيمية المتاحة بمنتج العميل والتجار المستهدفين وخطة التمويل، وأوصينا بالتأسيس في منطقة حرة مالية دولية يلائم إطارها التنظيمي الإطلاق على مراحل. وبالتعاون مع المستشار القانوني للعميل أعددنا خطة العمل وإطار الحوكمة وأدلة الامتثال الخاصة بالطلب، واستقطبنا شاغلي المناصب العليا في الامتثال وإدارة المخاطر الذين تتوقع الجهة التنظيمية وجودهم. وبالتوازي تواصلنا مع بنوك لديها خبرة في التعامل مع شركات المدفوعات لفتح حسابات التشغيل وحسابات حماية أموال العملاء، وأعددنا خطة دخول السوق ليبدأ ضم التجار فور صدور الموافقة.',
    ],
    results: [
      ['Regulatory approval in principle obtained in 5 months', 'الحصول على موافقة تنظيمية مبدئية خلال 5 أشهر'],
      ['Operating and safeguarding bank accounts opened in 6 weeks', 'فتح حسابات التشغيل وحماية أموال العملاء خلال 6 أسابيع'],
      ['Compliance and risk leadership hired before launch', 'تعيين قيادات الامتثال وإدارة المخاطر قبل الإطلاق'],
      ['First 20 merchants live within 3 months of launch', 'تشغيل أول 20 تاجراً خلال 3 أشهر من الإطلاق'],
    ],
    testimonial: {
      quote: [
        'Choosing the right regulatory route was the most important decision of our launch, and Bawaba made it a structured one. By the time approval came through, the bank accounts, the team and our first merchants were ready.',
        'كان اختيار المسار التنظيمي الصحيح أهم قرار في إطلاقنا، وقد جعله فريق بوابة قراراً مدروساً ومنهجياً. وحين صدرت الموافقة، كانت الحسابات المصرفية والفريق وأوائل التجار جاهزين.',
      ],
      author: ['Karim H.', 'كريم ح.'],
      position: ['Founder and CEO', 'المؤسس والرئيس التنفيذي'],
    },
    cover: ['case-fintech-launch.jpg', 'A gold payment card and coins over a network of connected nodes', 'بطاقة دفع ذهبية وعملات معدنية فوق شبكة من النقاط المتصلة'],
    seo: {
      title: ['Case Study: Launching a Regulated Payments Fintech in the UAE', 'دراسة حالة: إطلاق شركة تقنية مالية للمدفوعات خاضعة للتنظيم في الإمارات'],
      description: [
        'How a European payments fintech chose its UAE regulatory route, obtained approval in principle in 5 months and had 20 merchants live within 3 months of launch.',
        'كيف اختارت شركة أوروبية للمدفوعات مسارها التنظيمي في الإمارات، وحصلت على موافقة مبدئية خلال 5 أشهر، وشغّلت 20 تاجراً خلال 3 أشهر من الإطلاق.',
      ],
    },
  }),
];
