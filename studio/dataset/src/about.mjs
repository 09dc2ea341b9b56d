// About page singleton.
import { ls, lt, lsList, image, lb, key } from '../lib.mjs';

// seo.image is a plain image (no alt field in the content model).
const seoImage = (file) => { const { alt, ...plain } = image(file, '', ''); return plain; };

const value = (en, ar, textEn, textAr) => ({ _key: key('value', en), _type: 'aboutValue', title: ls(en, ar), text: lt(textEn, textAr) });

export default [
  {
    _id: 'aboutPage',
    _type: 'aboutPage',
    title: ls('About Bawaba Advisory', 'عن بوابة للاستشارات'),
    intro: lt(
      'Bawaba means "gateway" in Arabic. For more than ten years we have helped companies from Asia, Europe and the Gulf open their door to the UAE and build businesses that last.',
      'كلمة "بوابة" تلخّص ما نقوم به. فعلى مدى أكثر من عشر سنوات ساعدنا شركات من آسيا وأوروبا والخليج على فتح أبوابها في الإمارات وبناء أعمال تدوم.',
    ),
    body: lb('aboutPage', [
      ['h2', 'Who we are'],
      'Bawaba Advisory is a business advisory firm with offices in Dubai and Singapore. Our advisors have led market entries, company formations and regional expansions across trade, technology, manufacturing, retail and financial services. We have helped launch more than 500 businesses and advise more than 150 companies on an ongoing basis.',
      'We work with founders taking their first step abroad and with established groups adding a regional headquarters. What they share is a need for advice that is specific to their business and honest about costs, timelines and risks.',
      ['h2', 'How we work'],
      'Every engagement follows the same disciplined sequence, so you always know what happens next and who is responsible for it:',
      ['ol', [
        'Understand: a 30-minute consultation and a short discovery phase to learn your goals, constraints and timeline.',
        'Recommend: a written recommendation on market, structure and jurisdiction, with the reasoning and the costs.',
        'Deliver: setup, launch and hiring managed against one shared plan, with a single coordinator.',
        'Improve: monthly reporting and quarterly reviews that keep the business on track after launch.',
      ]],
      ['h2', 'Two offices, one team'],
      'Our Dubai office handles licensing, banking, visas and day-to-day operations on the ground. Our Singapore office works with clients from Southeast Asia, Australia and East Asia in their own time zone. Both work from the same plan, so nothing is lost between them.',
      ['p', ['Want to see the results? Read our ', { text: 'case studies', href: '/case-studies' }, ' or compare our ', { text: 'advisory packages', href: '/pricing' }, '.']],
    ], [
      ['h2', 'من نحن'],
      'بوابة للاستشارات شركة استشارات أعمال لها مكتبان في دبي وسنغافورة. قاد مستشارونا مشاريع دخول أسواق وتأسيس شركات وتوسعات إقليمية في قطاعات التجارة والتكنولوجيا والصناعة والتجزئة والخدمات المالية. وقد أسهمنا في إطلاق أكثر من 500 شركة، ونقدّم الاستشارات بصورة مستمرة لأكثر من 150 شركة.',
      'نعمل مع مؤسسين يخطون خطوتهم الأولى خارج بلدانهم، ومع مجموعات راسخة تضيف مقراً إقليمياً إلى أعمالها. ويجمع بينهم جميعاً حاجتهم إلى مشورة تناسب أعمالهم تحديداً، وتتعامل بصراحة مع التكاليف والجداول الزمنية والمخاطر.',
      ['h2', 'كيف نعمل'],
      'يسير كل مشروع وفق تسلسل منضبط واحد، فتعرف دائماً ما الخطوة التالية ومن المسؤول عنها:',
      ['ol', [
        'الفهم: استشارة مدتها 30 دقيقة ومرحلة استكشاف قصيرة للتعرف على أهدافك وقيودك وجدولك الزمني.',
        'التوصية: توصية مكتوبة بشأن السوق والهيكل القانوني وجهة الترخيص، مع مبرراتها وتكاليفها.',
        'التنفيذ: إدارة التأسيس والإطلاق والتوظيف وفق خطة مشتركة واحدة ومنسق واحد.',
        'التحسين: تقارير شهرية ومراجعات ربع سنوية تُبقي الأعمال على المسار الصحيح بعد الإطلاق.',
      ]],
      ['h2', 'مكتبان وفريق واحد'],
      'يتولى مكتبنا في دبي الترخيص والخدمات المصرفية والتأشيرات والعمليات اليومية على أرض الواقع، بينما يعمل مكتبنا في سنغافورة مع العملاء القادمين من جنوب شرق آسيا وأستراليا وشرق آسيا ضمن منطقتهم الزمنية. ويعمل المكتبان وفق خطة واحدة، فلا يضيع شيء بينهما.',
      ['p', ['هل تودّ الاطلاع على النتائج؟ اقرأ ', { text: 'دراسات الحالة', href: '/case-studies' }, ' أو قارن بين ', { text: 'باقاتنا الاستشارية', href: '/pricing' }, '.']],
    ]),
    mission: lt(
      'To make entering and growing in the UAE straightforward for ambitious companies, through practical advice, clear plans and dependable execution.',
      'أن نجعل دخول السوق الإماراتي والنمو فيه أمراً ميسّراً للشركات الطموحة، من خلال مشورة عملية وخطط واضحة وتنفيذ يُعتمد عليه.',
    ),
    vision: lt(
      'To be the advisor international companies trust first when they look to the UAE as their base for the Gulf and beyond.',
      'أن نكون المستشار الأول الذي تثق به الشركات الدولية حين تتطلع إلى الإمارات منطلقاً لأعمالها في الخليج وخارجه.',
    ),
    values: [
      value('Clarity', 'الوضوح',
        'We give straight answers on costs, timelines and risks, in writing, before you commit.',
        'نقدّم إجابات صريحة ومكتوبة عن التكاليف والجداول الزمنية والمخاطر قبل أن تلتزم بأي قرار.'),
      value('Integrity', 'النزاهة',
        'We recommend what is right for your business, even when it means less work for us.',
        'نوصي بما يناسب أعمالك فعلاً، حتى لو كان ذلك يعني عملاً أقل لنا.'),
      value('Partnership', 'الشراكة',
        'We stay with you after the licence is issued and measure our success by yours.',
        'نبقى إلى جانبك بعد إصدار الرخصة، ونقيس نجاحنا بنجاحك.'),
      value('Results', 'النتائج',
        'We agree measurable goals at the start and report against them every month.',
        'نتفق على أهداف قابلة للقياس منذ البداية، ونقدّم تقارير عن مدى تحقيقها كل شهر.'),
    ],
    claims: lsList([
      ['500+ businesses launched', 'أكثر من 500 شركة أطلقناها'],
      ['150+ companies advised', 'أكثر من 150 شركة قدّمنا لها الاستشارات'],
      ['10+ years of experience', 'أكثر من 10 سنوات من الخبرة'],
    ]),
    image: image(
      'about-offices.jpg',
      'Illustration of the Dubai and Singapore skylines joined by a flight path',
      'رسم توضيحي لأفقَي دبي وسنغافورة يربط بينهما مسار رحلة جوية',
    ),
    seo: {
      _type: 'seo',
      title: ls('About Us | Bawaba Advisory', 'من نحن | بوابة للاستشارات'),
      description: lt(
        'Meet Bawaba Advisory: a UAE business advisory firm with offices in Dubai and Singapore, 500+ businesses launched and more than 10 years of experience.',
        'تعرّف على بوابة للاستشارات: شركة استشارات أعمال لها مكتبان في دبي وسنغافورة، أطلقت أكثر من 500 شركة وتمتلك أكثر من 10 سنوات من الخبرة.',
      ),
      image: seoImage('about-offices.jpg'),
    },
  },
];
