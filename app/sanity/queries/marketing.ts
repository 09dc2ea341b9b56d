import { z } from 'zod';
import {
  image,
  landing,
  loc,
  localizedList,
  localizedListSchema as listSchema,
  namedQuery,
  portableText,
  portableTextSchema,
  seo,
} from '../groq';

/**
 * The marketing pages (home, services, about, pricing): one named query per page, each
 * localized in GROQ with an English fallback and checked by its zod schema.
 */

/** What a service's card and its section of the services page both show. */
const serviceFields = `_id, key, anchor, icon, color, "title": ${loc('title')}`;
const serviceFieldsSchema = z.object({
  _id: z.string(),
  key: z.string(),
  anchor: z.string(),
  icon: z.string(),
  color: z.string(),
  title: z.string(),
});

/** The six services as cards (home and services overview). */
const serviceCardProjection = `{ ${serviceFields}, "summary": ${loc('summary')} }`;
const serviceCardSchema = serviceFieldsSchema.extend({ summary: z.string() });
export type ServiceCard = z.infer<typeof serviceCardSchema>;

export const HOME_QUERY = namedQuery(
  'home',
  `{
    "page": *[_type == "homePage" && _id == "homePage"][0]{
      "hero": hero{
        "headline": ${loc('headline')},
        "highlight": ${loc('highlight')},
        "subtitle": ${loc('subtitle')},
        "trustedLine": ${loc('trustedLine')},
        "image": image${image.projection},
        "reasonsTitle": ${loc('reasonsTitle')},
        ${localizedList('reasons')}
      },
      "businessesLaunched": ${loc('businessesLaunched')},
      ${localizedList('claims')},
      "servicesIntro": servicesIntro{ "title": ${loc('title')}, "subtitle": ${loc('subtitle')} },
      "strategyCta": strategyCta{ "title": ${loc('title')}, "text": ${loc('text')}, ${localizedList('options')} },
      "testimonialsTitle": ${loc('testimonialsTitle')},
      "statisticsTitle": ${loc('statisticsTitle')},
      "indicatorsTitle": ${loc('indicatorsTitle')},
      ${seo.projection}
    },
    "services": *[_type == "service"] | order(order asc) ${serviceCardProjection},
    "testimonials": *[_type == "testimonial"] | order(order asc){
      _id, key,
      "quote": ${loc('quote')},
      "author": ${loc('author')},
      "position": ${loc('position')},
      "company": ${loc('company')},
      "result": ${loc('result')},
      "image": image${image.projection}
    },
    "statistics": *[_type == "statistic"] | order(order asc){
      _id, value,
      "label": ${loc('label')},
      "description": ${loc('description')}
    },
    "indicators": *[_type == "indicator"] | order(order asc){
      _id, trend, link,
      "category": ${loc('category')},
      "metric": ${loc('metric')},
      "value": ${loc('value')},
      "linkText": ${loc('linkText')}
    }
  }`,
  z.object({
    page: z.object({
      hero: z.object({
        headline: z.string(),
        highlight: z.string().nullable(),
        subtitle: z.string().nullable(),
        trustedLine: z.string().nullable(),
        image: image.schema.nullable(),
        reasonsTitle: z.string().nullable(),
        reasons: listSchema,
      }),
      businessesLaunched: z.string().nullable(),
      claims: listSchema,
      servicesIntro: z.object({ title: z.string(), subtitle: z.string().nullable() }),
      strategyCta: z.object({ title: z.string(), text: z.string().nullable(), options: listSchema }),
      testimonialsTitle: z.string(),
      statisticsTitle: z.string(),
      indicatorsTitle: z.string(),
      seo: seo.schema,
    }),
    services: z.array(serviceCardSchema),
    testimonials: z.array(
      z.object({
        _id: z.string(),
        key: z.string().nullable(),
        quote: z.string(),
        author: z.string(),
        position: z.string().nullable(),
        company: z.string().nullable(),
        result: z.string().nullable(),
        image: image.schema.nullable(),
      }),
    ),
    statistics: z.array(
      z.object({ _id: z.string(), value: z.string(), label: z.string(), description: z.string().nullable() }),
    ),
    indicators: z.array(
      z.object({
        _id: z.string(),
        category: z.string(),
        metric: z.string(),
        value: z.string(),
        trend: z.string(),
        link: z.string().nullable(),
        linkText: z.string().nullable(),
      }),
    ),
  }),
);
export type HomeData = z.infer<typeof HOME_QUERY.schema>;

export const SERVICES_QUERY = namedQuery(
  'services',
  `{
    "page": ${landing.page('services')},
    "homeIntro": *[_type == "homePage" && _id == "homePage"][0].servicesIntro{ "title": ${loc('title')}, "subtitle": ${loc('subtitle')} },
    "cards": *[_type == "service"] | order(order asc) ${serviceCardProjection},
    "services": *[_type == "service"] | order(order asc){
      ${serviceFields},
      "description": ${loc('description')},
      ${localizedList('features')}
    },
    "setupOptions": *[_type == "companySetupOption"] | order(order asc){
      _id, key,
      "title": ${loc('title')},
      "description": ${loc('description')}
    }
  }`,
  z.object({
    page: landing.schema,
    homeIntro: z.object({ title: z.string(), subtitle: z.string().nullable() }).nullable(),
    cards: z.array(serviceCardSchema),
    services: z.array(serviceFieldsSchema.extend({ description: z.string().nullable(), features: listSchema })),
    setupOptions: z.array(
      z.object({ _id: z.string(), key: z.string(), title: z.string(), description: z.string().nullable() }),
    ),
  }),
);
export type ServicesData = z.infer<typeof SERVICES_QUERY.schema>;

export const ABOUT_QUERY = namedQuery(
  'about',
  `*[_type == "aboutPage" && _id == "aboutPage"][0]{
    "title": ${loc('title')},
    "intro": ${loc('intro')},
    "body": coalesce(${portableText('body')}, []),
    "mission": ${loc('mission')},
    "vision": ${loc('vision')},
    "values": coalesce(values[]{ _key, "title": ${loc('title')}, "text": ${loc('text')} }, []),
    ${localizedList('claims')},
    "image": image${image.projection},
    ${seo.projection}
  }`,
  z.object({
    title: z.string(),
    intro: z.string().nullable(),
    body: portableTextSchema,
    mission: z.string().nullable(),
    vision: z.string().nullable(),
    values: z.array(z.object({ _key: z.string(), title: z.string(), text: z.string().nullable() })),
    claims: listSchema,
    image: image.schema.nullable(),
    seo: seo.schema,
  }),
);
export type AboutData = z.infer<typeof ABOUT_QUERY.schema>;

export const PRICING_QUERY = namedQuery(
  'pricing',
  `{
    "page": ${landing.page('pricing')},
    "plans": *[_type == "packagePlan"] | order(order asc){
      _id, key, consultationHours, businessReports, priceSgd, paymentLink,
      "name": ${loc('name')},
      "description": ${loc('description')},
      "timeCommitment": ${loc('timeCommitment')},
      "popularLabel": ${loc('popularLabel')},
      ${localizedList('keyAreas')},
      "bestFor": ${loc('bestFor')},
      ${localizedList('features')}
    }
  }`,
  z.object({
    page: landing.schema,
    plans: z.array(
      z.object({
        _id: z.string(),
        key: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        timeCommitment: z.string().nullable(),
        consultationHours: z.number().nullable(),
        businessReports: z.number().nullable(),
        popularLabel: z.string().nullable(),
        keyAreas: listSchema,
        bestFor: z.string().nullable(),
        features: listSchema,
        priceSgd: z.number(),
        paymentLink: z.string().nullable(),
      }),
    ),
  }),
);
export type PricingData = z.infer<typeof PRICING_QUERY.schema>;

/** The packages as billing and the client portal need them: prices, Stripe price ids, names and features in the page's language. */
export const PORTAL_PLANS_QUERY = namedQuery(
  'portal-plans',
  `*[_type == "packagePlan"] | order(order asc){
    key, priceSgd, paymentLink, stripePriceId,
    "name": ${loc('name')},
    "description": ${loc('description')},
    "timeCommitment": ${loc('timeCommitment')},
    ${localizedList('features')}
  }`,
  z.array(
    z.object({
      key: z.string(),
      priceSgd: z.number(),
      paymentLink: z.string().nullable(),
      stripePriceId: z.string().nullable(),
      name: z.string(),
      description: z.string().nullable(),
      timeCommitment: z.string().nullable(),
      features: listSchema,
    }),
  ),
);
export type PortalPlans = z.infer<typeof PORTAL_PLANS_QUERY.schema>;
