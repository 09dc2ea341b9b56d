// The site's routes, declared once and mounted for both languages by remix.config.js:
// English at the path given here, Arabic at /ar + the same path.
// Keep this file plain JavaScript: remix.config.js imports it at build time.

/** @type {{ id: string, path?: string, index?: boolean, file: string }[]} */
export const routeTable = [
  { id: 'home', index: true, file: 'pages/home.tsx' },
];

/** Routes that answer outside the page shell (no language prefix). */
export const resourceRoutes = [
  { id: 'image', path: 'images/:projectId/:dataset/:file', file: 'resources/image.ts' },
];
