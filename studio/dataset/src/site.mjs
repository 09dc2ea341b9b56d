// Site-wide content: settings (brand, contact, navigation, default SEO) and the two offices.
import { ls, lt, image, navLink } from '../lib.mjs';

export default [
  {
    _id: 'siteSettings',
    _type: 'siteSettings',
    brandName: ls('Bawaba Advisory', 'بوابة للاستشارات'),
    tagline: lt(
      'We help ambitious companies enter, establish and grow in the UAE, from the first licence to a thriving regional business.',
      'نساعد الشركات الطموحة على دخول السوق الإماراتي وتأسيس أعمالها والنمو فيه، من الرخصة الأولى حتى بناء عمل إقليمي مزدهر.',
    ),
    logo: image('logo.png', 'Bawaba Advisory', 'بوابة للاستشارات'),
    contactEmail: 'hello@bawaba-advisory.com',
    contactPhone: '+971 4 555 0142',
    whatsappNumber: '971505550142',
    whatsappMessage: lt(
      "Hello! I'd like to learn more about your UAE advisory services.",
      'مرحباً! أود معرفة المزيد عن خدماتكم الاستشارية في الإمارات.',
    ),
    bookingWhatsappNumber: '6580551420',
    bookingWhatsappMessage: lt(
      "Hello! I'd like to book a 30-minute consultation about doing business in the UAE.",
      'مرحباً! أود حجز استشارة مدتها 30 دقيقة حول ممارسة الأعمال في الإمارات.',
    ),
    schedulingUrl: 'https://calendly.com/bawaba-advisory/30min',
    showTestBookingLink: false,
    headerNavigation: [
      navLink('/', 'Home', 'الرئيسية', 'home'),
      navLink('/about', 'About', 'من نحن', 'info'),
      navLink('/services', 'Services', 'خدماتنا', 'briefcase'),
      navLink('/case-studies', 'Case Studies', 'دراسات الحالة', 'folder'),
      navLink('/blog', 'Blog', 'المدونة', 'book'),
      navLink('/faq', 'FAQ', 'الأسئلة الشائعة', 'help'),
    ],
    footerNavigation: [
      navLink('/services', 'Services', 'خدماتنا'),
      navLink('/about', 'About', 'من نحن'),
      navLink('/case-studies', 'Case Studies', 'دراسات الحالة'),
      navLink('/blog', 'Blog', 'المدونة'),
      navLink('/faq', 'FAQ', 'الأسئلة الشائعة'),
    ],
    legalNavigation: [
      navLink('/privacy-policy', 'Privacy Policy', 'سياسة الخصوصية'),
      navLink('/terms-of-service', 'Terms of Service', 'شروط الخدمة'),
      navLink('/cookies-policy', 'Cookies Policy', 'سياسة ملفات تعريف الارتباط'),
    ],
    seo: {
      _type: 'seo',
      title: ls('Bawaba Advisory | UAE Market Entry & Business Setup', 'بوابة للاستشارات | دخول السوق الإماراتي وتأسيس الشركات'),
      description: lt(
        'Advisory for companies entering and growing in the UAE: market entry, company setup, launch strategy, operations, recruitment and performance management.',
        'استشارات للشركات التي تدخل السوق الإماراتي وتنمو فيه: دخول السوق وتأسيس الشركات واستراتيجية الإطلاق والعمليات والتوظيف وإدارة الأداء.',
      ),
    },
  },
  {
    _id: 'office-dubai',
    _type: 'office',
    key: 'dubai',
    city: ls('Dubai', 'دبي'),
    country: ls('United Arab Emirates', 'الإمارات العربية المتحدة'),
    address: lt('Office 1804, Bay Square Building 2, Business Bay, Dubai', 'مكتب 1804، باي سكوير مبنى 2، الخليج التجاري، دبي'),
    phone: '+971 4 555 0142',
    email: 'dubai@bawaba-advisory.com',
    hours: ls('Mon–Fri, 9:00–18:00 GST', 'الاثنين–الجمعة، 9:00–18:00 بتوقيت الخليج'),
    order: 1,
  },
  {
    _id: 'office-singapore',
    _type: 'office',
    key: 'singapore',
    city: ls('Singapore', 'سنغافورة'),
    country: ls('Singapore', 'سنغافورة'),
    address: lt('#22-02, 10 Anson Road, Singapore 079903', '10 أنسون رود، الوحدة 22-02، سنغافورة 079903'),
    phone: '+65 8055 1420',
    email: 'singapore@bawaba-advisory.com',
    hours: ls('Mon–Fri, 9:00–18:00 SGT', 'الاثنين–الجمعة، 9:00–18:00 بتوقيت سنغافورة'),
    order: 2,
  },
];
