import { locales } from '~/i18n';
import { EARLY_TAP, localeCookie } from './early-taps';

/**
 * The early taps' inline script (app/lib/early-taps.ts says what it does). Its text is rendered
 * on the server only (app/lib/head-scripts.server.ts): the browser's bundle needs none of it.
 */
// The cookies are written into the script's text (the same for every page, so its hash holds).
const cookies = JSON.stringify(Object.fromEntries(locales.map((l) => [l, localeCookie(l)])));

// p: the open popup, b: its button. Once the button is no longer the script's (hydrated), the
// popup is the component's too: `shut` then only forgets it.
export const earlyTapsScript =
  `(function(w,d){var E='${EARLY_TAP}',C=${cookies},p=null,b=null;` +
  `function shut(f){var m=p,t=b;p=b=null;if(!m||!t.hasAttribute(E))return;` +
  `var i=m.contains(d.activeElement);m.hidden=true;t.setAttribute('aria-expanded','false');if(f&&i)t.focus()}` +
  `function out(e){if(p&&!p.contains(e.target)&&!b.contains(e.target))shut()}` +
  `w.addEventListener('click',function(e){` +
  `var t=e.target&&e.target.closest&&e.target.closest('['+E+']');if(!t)return;` +
  `var k=t.getAttribute(E);` +
  `if(k==='menu'||k==='popup'){var m=d.getElementById(t.getAttribute('aria-controls')||'');if(!m)return;` +
  `e.stopPropagation();e.preventDefault();var o=m.hidden;` +
  `if(k==='popup'){if(!o)return shut();shut();p=m;b=t}` +
  `m.hidden=!o;t.setAttribute('aria-expanded',String(o));` +
  `if(k==='popup'&&!e.detail){var a=m.querySelector('a');if(a)a.focus()}}` +
  `else if(k==='locale'){if(t.hasAttribute('aria-current')){e.preventDefault();shut(1)}` +
  `else if(C.hasOwnProperty(t.hreflang))d.cookie=C[t.hreflang]}},true);` +
  `w.addEventListener('pointerdown',out,true);w.addEventListener('focusin',out,true);` +
  `w.addEventListener('keydown',function(e){if(e.key==='Escape')shut(1)},true)})(window,document);`;
