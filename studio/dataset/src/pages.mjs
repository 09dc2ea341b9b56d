// Landing pages: title, intro and SEO for the list-style pages.
import { ls, lt } from '../lib.mjs';

const page = (key, [titleEn, titleAr], [introEn, introAr], [seoTitleEn, seoTitleAr], [seoDescEn, seoDescAr]) => ({
  _id: `landingPage-${key}`,
  _type: 'landingPage',
  key,
  title: ls(titleEn, titleAr),
  intro: lt(introEn, introAr),
  seo: { _type: 'seo', title: ls(seoTitleEn, seoTitleAr), description: lt(seoDescEn, seoDescAr) },
});

export default [
  page('services',
    ['Our Advisory Services', 'خدماتنا الاستشارية'],
    [
      'From the first market assessment to a fully staffed, compliant and growing company: six services that can be taken one at a time or combined in a monthly package.',
      'من التقييم الأول للسوق حتى شركة متكاملة الفريق وملتزمة بالأنظمة وفي طور النمو: ست خدمات يمكن الاستفادة منها منفردة أو مجتمعة ضمن باقة شهرية.',
    ],
    ['UAE Business Advisory Services | Bawaba Advisory', 'خدمات استشارات الأعمال في الإمارات | بوابة للاستشارات'],
    [
      'Market entry, business setup, launch strategy, operations, recruitment and performance management for companies in the UAE, plus free zone, mainland, branch and LLC setup.',
      'دخول السوق وتأسيس الشركات واستراتيجية الإطلاق والعمليات والتوظيف وإدارة الأداء للشركات في الإمارات، إضافة إلى التأسيس في المنطقة الحرة والبر الرئيسي والفروع والشركات ذات المسؤولية المحدودة.',
    ]),
  page('pricing',
    ['Advisory Packages', 'الباقات الاستشارية'],
    [
      'Three monthly packages with a fixed number of consultation hours and business reports. Prices are in Singapore dollars per month; change or cancel at the end of any billing period.',
      'ثلاث باقات شهرية بعدد محدد من الساعات الاستشارية وتقارير الأعمال. الأسعار بالدولار السنغافوري شهرياً، ويمكنك تغيير الباقة أو إلغاؤها في نهاية أي فترة فوترة.',
    ],
    ['Pricing: Starter, Business and Enterprise Packages | Bawaba Advisory', 'الأسعار: الباقة الأساسية وباقة الأعمال وباقة المؤسسات | بوابة للاستشارات'],
    [
      'Compare our monthly advisory packages: 4, 8 or 12 consultation hours per month, business reports, and a dedicated advisor for companies in the UAE.',
      'قارن بين باقاتنا الاستشارية الشهرية: 4 أو 8 أو 12 ساعة استشارية شهرياً، وتقارير أعمال، ومستشار مخصص للشركات في الإمارات.',
    ]),
  page('faq',
    ['Frequently Asked Questions', 'الأسئلة الشائعة'],
    [
      'Straight answers on UAE tax, company setup, banking and our packages. If your question is not here, send it to us and an advisor will reply.',
      'إجابات مباشرة عن الضرائب في الإمارات وتأسيس الشركات والخدمات المصرفية وباقاتنا. وإن لم تجد سؤالك هنا، فأرسله إلينا وسيرد عليك أحد مستشارينا.',
    ],
    ['FAQ: UAE Tax, Company Setup and Pricing | Bawaba Advisory', 'الأسئلة الشائعة: الضرائب وتأسيس الشركات والأسعار في الإمارات | بوابة للاستشارات'],
    [
      'Corporate tax, VAT, bank accounts, free zone or mainland, and our advisory packages: answers to the questions we hear most from companies entering the UAE.',
      'ضريبة الشركات وضريبة القيمة المضافة والحسابات المصرفية والمفاضلة بين المنطقة الحرة والبر الرئيسي وباقاتنا الاستشارية: إجابات عن أكثر الأسئلة التي تطرحها الشركات الراغبة في دخول الإمارات.',
    ]),
  page('blog',
    ['Insights', 'رؤى ومقالات'],
    [
      'Practical articles on doing business in the UAE: regulation and tax updates, setup guides, market analysis and lessons from the companies we advise.',
      'مقالات عملية حول ممارسة الأعمال في الإمارات: مستجدات الأنظمة والضرائب، وأدلة التأسيس، وتحليلات السوق، ودروس مستفادة من الشركات التي نقدّم لها الاستشارات.',
    ],
    ['Blog: Doing Business in the UAE | Bawaba Advisory', 'المدونة: ممارسة الأعمال في الإمارات | بوابة للاستشارات'],
    [
      'Guides and analysis on UAE company setup, free zones, corporate tax, VAT, investment and market trends from the advisors at Bawaba Advisory.',
      'أدلة وتحليلات حول تأسيس الشركات في الإمارات والمناطق الحرة وضريبة الشركات وضريبة القيمة المضافة والاستثمار واتجاهات السوق، من مستشاري بوابة للاستشارات.',
    ]),
  page('caseStudies',
    ['Case Studies', 'دراسات الحالة'],
    [
      'How companies in technology, manufacturing, retail and financial services entered the UAE with us: the challenge, what we did and the measurable results.',
      'كيف دخلت شركات في قطاعات التكنولوجيا والصناعة والتجزئة والخدمات المالية السوق الإماراتي معنا: التحدي، وما قمنا به، والنتائج القابلة للقياس.',
    ],
    ['Client Case Studies | Bawaba Advisory', 'دراسات حالة العملاء | بوابة للاستشارات'],
    [
      'Real engagements, real results: read how Bawaba Advisory helped a tech startup, a manufacturer, a retailer and a fintech launch and grow in the UAE.',
      'مشاريع حقيقية ونتائج ملموسة: اقرأ كيف ساعدت بوابة للاستشارات شركة تقنية ناشئة ومصنّعاً وعلامة تجزئة وشركة تقنية مالية على الانطلاق والنمو في الإمارات.',
    ]),
  page('bookingConfirmation',
    ['Your Consultation Is Booked', 'تم حجز استشارتك'],
    [
      'Thank you. Your 30-minute consultation is confirmed and the details are on their way to your inbox. To make the most of the time, note your goals, target market and any deadlines you are working to.',
      'شكراً لك. تم تأكيد استشارتك التي تستغرق 30 دقيقة، وستصلك التفاصيل عبر البريد الإلكتروني قريباً. وللاستفادة القصوى من الوقت، دوّن أهدافك والسوق المستهدف وأي مواعيد نهائية تلتزم بها.',
    ],
    ['Booking Confirmed | Bawaba Advisory', 'تأكيد الحجز | بوابة للاستشارات'],
    [
      'Your 30-minute consultation with Bawaba Advisory is confirmed. Here is what happens next.',
      'تم تأكيد استشارتك مع بوابة للاستشارات ومدتها 30 دقيقة. إليك ما سيحدث بعد ذلك.',
    ]),
];
