/** Lengths past which search engines usually cut a title or a description. */
export const TITLE_MAX = 60;
export const DESCRIPTION_MAX = 160;
