/**
 * Wraps the Studio's default input of an Arabic (`ar`) field so it is edited right-to-left
 * in an Arabic font. Written without JSX so the schemas compile in any TS/esbuild setup.
 */
import { createElement, type ReactElement } from 'react';
import type { InputProps } from 'sanity';
import { styled } from 'styled-components';

/**
 * Noto Kufi Arabic first (the site's Arabic face; the Studio loads the variable build as
 * "Noto Kufi Arabic Variable"), then Arabic faces that ship with common operating systems.
 */
export const ARABIC_FONT_STACK = [
  "'Noto Kufi Arabic'",
  "'Noto Kufi Arabic Variable'",
  "'Noto Naskh Arabic'",
  "'Geeza Pro'",
  "'Segoe UI'",
  'Tahoma',
  "'Arabic Typesetting'",
  'sans-serif',
].join(', ');

// Sanity UI sets font-family on its inputs, so the font is applied to them explicitly.
const RtlBox = styled.div`
  direction: rtl;
  font-family: ${ARABIC_FONT_STACK};

  & input,
  & textarea,
  & [contenteditable='true'],
  & [data-slate-editor] {
    font-family: ${ARABIC_FONT_STACK};
    direction: rtl;
    text-align: start;
  }
`;

export function ArabicInput(props: InputProps): ReactElement {
  return createElement(RtlBox, { dir: 'rtl', lang: 'ar' }, props.renderDefault(props));
}
