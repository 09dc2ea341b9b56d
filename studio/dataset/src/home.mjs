// Home page: the homePage singleton, the three testimonials, the four market statistics
// and the four-row strategic indicators table.
import { ls, lt, lsList, image } from '../lib.mjs';

// seo.image is a plain image (no alt field in the content model).
const seoImage = (file) => { const { alt, ...plain } = image(file, '', ''); return plain; };

const claims = lsList([
  ['500+ businesses launched', 'أكثر من 500 شركة أطلقناها'],
  ['150+ companies advised', 'أكثر من 150 شركة قدّمنا لها الاستشارات'],
  ['10+ years of experience', 'أكثر من 10 سنوات من الخبرة'],
]);

const homePage = {
  _id: 'homePage',
  _type: 'homePage',
  hero: {
    headline: ls('Your Gateway to Business Success in the UAE', 'بوابتك إلى نجاح أعمالك في الإمارات'),
    highlight: ls('UAE', 'الإمارات'),
    subtitle: lt(
      'We help founders and established companies enter the United Arab Emirates, set up the right entity and build a profitable operation, with one advisory team from the first feasibility question to the first annual review.',
      'نرافق المؤسسين والشركات القائمة في دخول دولة الإمارات العربية المتحدة، واختيار الكيان القانوني المناسب، وبناء عمليات مربحة، مع فريق استشاري واحد يتابع معكم من دراسة الجدوى الأولى حتى المراجعة السنوية الأولى.',
    ),
    trustedLine: ls(
      'A trusted partner to founders and boards from Asia, Europe and the Gulf',
      'شريك موثوق لمؤسسين ومجالس إدارة من آسيا وأوروبا والخليج',
    ),
    image: image(
      'home-hero.jpg',
      'An arched gateway in the desert dunes facing a city skyline at dusk',
      'بوابة مقوّسة بين الكثبان الرملية تطل على أفق مدينة عند الغروب',
    ),
    reasonsTitle: ls('Why the UAE', 'لماذا الإمارات'),
    reasons: lsList([
      ['0% corporate tax on qualifying free zone income', 'ضريبة شركات 0% على الدخل المؤهل لشركات المناطق الحرة'],
      ['100% foreign ownership for most mainland activities', 'تملّك أجنبي بنسبة 100% لمعظم الأنشطة في البر الرئيسي'],
      ['Direct flights to more than 240 destinations', 'رحلات مباشرة إلى أكثر من 240 وجهة حول العالم'],
      ['A stable currency pegged to the US dollar', 'عملة مستقرة مربوطة بالدولار الأمريكي'],
      ['World-class ports, logistics and digital infrastructure', 'موانئ وخدمات لوجستية وبنية رقمية بمستوى عالمي'],
      ['A base for the Gulf, Africa and South Asia', 'منطلق إلى أسواق الخليج وأفريقيا وجنوب آسيا'],
    ]),
  },
  businessesLaunched: ls('500+ businesses launched', 'أكثر من 500 شركة أطلقناها'),
  claims,
  servicesIntro: {
    title: ls('Our Services', 'خدماتنا'),
    subtitle: lt(
      'Six practices that cover the full journey: deciding whether and how to enter, forming the company, launching, running it well, hiring the team and measuring what matters.',
      'ست خدمات تغطي الرحلة كاملة: تقرير جدوى الدخول وطريقته، وتأسيس الشركة، وإطلاقها، وإدارة عملياتها بكفاءة، وبناء فريقها، وقياس ما يهم من نتائج.',
    ),
  },
  strategyCta: {
    title: ls('Schedule a Strategy Session', 'احجز جلسة استراتيجية'),
    text: lt(
      'In 30 minutes with one of our advisors you leave with a clear next step. Typical topics include:',
      'خلال 30 دقيقة مع أحد مستشارينا تخرج بخطوة تالية واضحة. ومن المواضيع التي نتناولها عادةً:',
    ),
    options: lsList([
      ['Market entry feasibility and sizing', 'جدوى دخول السوق وتقدير حجمه'],
      ['Free zone or mainland: choosing the right licence', 'المنطقة الحرة أم البر الرئيسي: اختيار الرخصة المناسبة'],
      ['Corporate tax and VAT readiness', 'الجاهزية لضريبة الشركات وضريبة القيمة المضافة'],
      ['Hiring plan, visas and Emiratisation', 'خطة التوظيف والتأشيرات والتوطين'],
      ['A 90-day launch plan for your first customers', 'خطة إطلاق لأول 90 يوماً للوصول إلى عملائك الأوائل'],
    ]),
  },
  testimonialsTitle: ls('What Our Clients Say', 'ماذا يقول عملاؤنا'),
  statisticsTitle: ls('The UAE Market in Numbers', 'السوق الإماراتي بالأرقام'),
  indicatorsTitle: ls('Strategic Indicators', 'مؤشرات استراتيجية'),
  seo: {
    _type: 'seo',
    title: ls('Bawaba Advisory | Your Gateway to Business in the UAE', 'بوابة للاستشارات | بوابتك إلى الأعمال في الإمارات'),
    description: lt(
      'Market entry, company setup and growth advisory for the UAE, from offices in Dubai and Singapore. 500+ businesses launched. Book a 30-minute consultation.',
      'استشارات دخول السوق وتأسيس الشركات والنمو في الإمارات من مكتبينا في دبي وسنغافورة. أكثر من 500 شركة أطلقناها. احجز استشارة مدتها 30 دقيقة.',
    ),
    image: seoImage('home-hero.jpg'),
  },
};

const testimonials = [
  {
    _id: 'testimonial-techStartup',
    _type: 'testimonial',
    key: 'techStartup',
    quote: lt(
      'We expected the licence to be the hard part. Bawaba showed us it was the bank account and the visas, planned for both from day one, and we signed our first Dubai client while competitors were still waiting on paperwork.',
      'توقعنا أن تكون الرخصة هي الجزء الأصعب، لكن فريق بوابة أوضح لنا أن التحدي الحقيقي هو الحساب المصرفي والتأشيرات، فخطّط لهما منذ اليوم الأول، ووقّعنا عقدنا الأول مع عميل في دبي بينما كان منافسونا لا يزالون ينتظرون إنهاء أوراقهم.',
    ),
    author: ls('Daniel Tan', 'دانيال تان'),
    position: ls('Co-founder and CEO', 'الشريك المؤسس والرئيس التنفيذي'),
    company: ls('Lumen Analytics', 'Lumen Analytics'),
    result: ls('Licensed and trading in Dubai within 7 weeks', 'حصلت على الرخصة وبدأت العمل في دبي خلال 7 أسابيع'),
    image: image('testimonial-tech-startup.jpg', 'Illustrated portrait of Daniel Tan', 'صورة توضيحية لدانيال تان'),
    order: 1,
  },
  {
    _id: 'testimonial-manufacturing',
    _type: 'testimonial',
    key: 'manufacturing',
    quote: lt(
      'Their team compared three industrial zones on land cost, power tariffs and export routes, then managed the approvals while we focused on the equipment. The plant was commissioned ahead of our internal plan.',
      'قارن فريقهم بين ثلاث مناطق صناعية من حيث تكلفة الأراضي وتعرفة الكهرباء ومسارات التصدير، ثم تولّى متابعة الموافقات بينما ركّزنا نحن على المعدات. وبدأ المصنع التشغيل قبل الموعد الذي حددناه داخلياً.',
    ),
    author: ls('Rajesh Menon', 'راجيش مينون'),
    position: ls('Managing Director', 'المدير العام'),
    company: ls('Apex Precision Components', 'Apex Precision Components'),
    result: ls('Plant commissioned 2 months ahead of schedule', 'تشغيل المصنع قبل الموعد المحدد بشهرين'),
    image: image('testimonial-manufacturing.jpg', 'Illustrated portrait of Rajesh Menon', 'صورة توضيحية لراجيش مينون'),
    order: 2,
  },
  {
    _id: 'testimonial-retail',
    _type: 'testimonial',
    key: 'retail',
    quote: lt(
      'Bawaba helped us decide between a franchise partner and our own mainland company, then negotiated our first mall lease. Having one advisor who understood both the numbers and the local market made the difference.',
      'ساعدنا فريق بوابة على المفاضلة بين شريك امتياز تجاري وتأسيس شركتنا الخاصة في البر الرئيسي، ثم تفاوض نيابةً عنا على عقد إيجار متجرنا الأول في أحد المراكز التجارية. وكان وجود مستشار واحد يفهم الأرقام والسوق المحلي معاً هو ما صنع الفارق.',
    ),
    author: ls('Sofia Marchetti', 'صوفيا ماركيتي'),
    position: ls('Regional Director, Middle East', 'المديرة الإقليمية للشرق الأوسط'),
    company: ls('Casa Olivo', 'Casa Olivo'),
    result: ls('3 stores opened in the first 12 months', 'افتتاح 3 متاجر خلال أول 12 شهراً'),
    image: image('testimonial-retail.jpg', 'Illustrated portrait of Sofia Marchetti', 'صورة توضيحية لصوفيا ماركيتي'),
    order: 3,
  },
];

const statistics = [
  {
    _id: 'statistic-foreign-investment',
    _type: 'statistic',
    value: '68%',
    label: ls('Foreign investment increase', 'زيادة في الاستثمار الأجنبي'),
    description: lt(
      'Growth in foreign direct investment into the UAE, a sign of sustained international confidence in its open, diversified economy.',
      'نمو الاستثمار الأجنبي المباشر في دولة الإمارات، ما يعكس ثقة دولية راسخة في اقتصادها المنفتح والمتنوع.',
    ),
    order: 1,
  },
  {
    _id: 'statistic-gdp-growth',
    _type: 'statistic',
    value: '4.5%',
    label: ls('GDP growth', 'نمو الناتج المحلي الإجمالي'),
    description: lt(
      'Real GDP growth led by non-oil sectors such as trade, logistics, tourism, finance and technology.',
      'نمو حقيقي في الناتج المحلي الإجمالي تقوده القطاعات غير النفطية مثل التجارة والخدمات اللوجستية والسياحة والتمويل والتكنولوجيا.',
    ),
    order: 2,
  },
  {
    _id: 'statistic-new-businesses',
    _type: 'statistic',
    value: '16,000+',
    label: ls('New businesses', 'منشأة جديدة'),
    description: lt(
      'New companies registered, from solo consultancies in free zones to regional headquarters on the mainland.',
      'شركات جديدة مسجّلة، من الاستشاريين المستقلين في المناطق الحرة إلى المقرات الإقليمية في البر الرئيسي.',
    ),
    order: 3,
  },
  {
    _id: 'statistic-corporate-tax',
    _type: 'statistic',
    value: '0%',
    label: ls('Corporate tax for qualifying free zone firms', 'ضريبة الشركات على شركات المناطق الحرة المؤهلة'),
    description: lt(
      'Qualifying free zone companies pay 0% corporate tax on qualifying income, provided they meet the substance and reporting conditions.',
      'تخضع شركات المناطق الحرة المؤهلة لضريبة شركات بنسبة 0% على دخلها المؤهل، شريطة استيفاء متطلبات الجوهر الاقتصادي وإعداد التقارير.',
    ),
    order: 4,
  },
];

const indicators = [
  {
    _id: 'indicator-air-destinations',
    _type: 'indicator',
    category: ls('Connectivity', 'الربط الجوي'),
    metric: ls('Air destinations served from UAE airports', 'الوجهات الجوية المتاحة من مطارات الإمارات'),
    value: ls('240+', '240+'),
    trend: 'expanding',
    link: 'https://www.dubaiairports.ae',
    linkText: ls('Dubai Airports', 'مطارات دبي'),
    order: 1,
  },
  {
    _id: 'indicator-tech-startups',
    _type: 'indicator',
    category: ls('Technology', 'التكنولوجيا'),
    metric: ls('Tech startup growth', 'نمو الشركات التقنية الناشئة'),
    value: ls('47%', '47%'),
    trend: 'accelerating',
    link: 'https://www.moec.gov.ae',
    linkText: ls('UAE Ministry of Economy', 'وزارة الاقتصاد الإماراتية'),
    order: 2,
  },
  {
    _id: 'indicator-ease-of-business',
    _type: 'indicator',
    category: ls('Business Environment', 'بيئة الأعمال'),
    metric: ls('Ease of doing business ranking', 'تصنيف سهولة ممارسة الأعمال'),
    value: ls('Top 10', 'ضمن أفضل 10'),
    trend: 'stable',
    link: 'https://u.ae/en/information-and-services/business',
    linkText: ls('UAE Government Portal', 'البوابة الرسمية لحكومة الإمارات'),
    order: 3,
  },
  {
    _id: 'indicator-industrial-growth',
    _type: 'indicator',
    category: ls('Industry', 'الصناعة'),
    metric: ls('Industrial sector growth in 2023', 'نمو القطاع الصناعي في 2023'),
    value: ls('22%', '22%'),
    trend: 'rising',
    link: 'https://moiat.gov.ae',
    linkText: ls('Ministry of Industry and Advanced Technology', 'وزارة الصناعة والتكنولوجيا المتقدمة'),
    order: 4,
  },
];

export default [homePage, ...testimonials, ...statistics, ...indicators];
