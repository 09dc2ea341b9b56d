import { z } from 'zod';
import { image, loc, namedQuery, optionalTexts, seo } from '../groq';

const navLinksSchema = z.array(
  z.object({ _key: z.string(), href: z.string(), icon: z.string().nullable(), label: z.string() }),
);

const navLinks = (field: string) =>
  `"${field}": coalesce(${field}[]{ _key, href, icon, "label": ${loc('label')} }, [])`;

/** An office's texts that an editor may leave empty (the footer, structured data and invoices skip them then). */
const officeTexts = optionalTexts('country', 'address', 'hours');

/** Everything the header and footer need, in the page's language. */
export const SHELL_QUERY = namedQuery(
  'shell',
  `{
    "settings": *[_type == "siteSettings" && _id == "siteSettings"][0]{
      "brandName": ${loc('brandName')},
      "tagline": ${loc('tagline')},
      "logo": logo${image.projection},
      contactEmail,
      contactPhone,
      whatsappNumber,
      "whatsappMessage": ${loc('whatsappMessage')},
      bookingWhatsappNumber,
      "bookingWhatsappMessage": ${loc('bookingWhatsappMessage')},
      schedulingUrl,
      "showTestBookingLink": coalesce(showTestBookingLink, false),
      ${navLinks('headerNavigation')},
      ${navLinks('footerNavigation')},
      ${navLinks('legalNavigation')},
      ${seo.projection}
    },
    "offices": *[_type == "office"] | order(order asc){
      _id, key, phone, email,
      "city": ${loc('city')},
      ${officeTexts.projection}
    },
    "services": *[_type == "service"] | order(order asc){ _id, anchor, "title": ${loc('title')} }
  }`,
  z.object({
    settings: z.object({
      brandName: z.string(),
      tagline: z.string().nullable(),
      logo: image.schema.nullable(),
      contactEmail: z.string().nullable(),
      contactPhone: z.string().nullable(),
      whatsappNumber: z.string().nullable(),
      whatsappMessage: z.string().nullable(),
      bookingWhatsappNumber: z.string().nullable(),
      bookingWhatsappMessage: z.string().nullable(),
      schedulingUrl: z.string().nullable(),
      showTestBookingLink: z.boolean(),
      headerNavigation: navLinksSchema,
      footerNavigation: navLinksSchema,
      legalNavigation: navLinksSchema,
      seo: seo.schema,
    }),
    offices: z.array(
      z.object({
        _id: z.string(),
        key: z.string(),
        city: z.string(),
        ...officeTexts.shape,
        phone: z.string().nullable(),
        email: z.string().nullable(),
      }),
    ),
    services: z.array(z.object({ _id: z.string(), anchor: z.string(), title: z.string() })),
  }),
);
export type Shell = z.infer<typeof SHELL_QUERY.schema>;
