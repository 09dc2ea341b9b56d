/**
 * Studio environment. Sanity exposes SANITY_STUDIO_* variables to the Studio bundle at build
 * time. The defaults are harmless placeholders so `sanity build` works offline; a deployed
 * Studio must set both.
 */
export const PLACEHOLDER_PROJECT_ID = 'placeholder'

export const projectId = process.env.SANITY_STUDIO_PROJECT_ID || PLACEHOLDER_PROJECT_ID
export const dataset = process.env.SANITY_STUDIO_DATASET || 'production'
