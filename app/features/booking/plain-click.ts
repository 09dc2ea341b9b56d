/**
 * Whether a click on a link is a plain one: the main button, no modifier key, not already handled.
 * Only a plain click may be turned into something else (the booking dialog); a middle click,
 * Ctrl/Cmd-click (new tab), Shift-click (new window) or Alt-click (download) keeps the link's own
 * meaning, as a visitor expects of anything that looks like a link.
 */
export function isPlainClick(event: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
}): boolean {
  return (
    event.button === 0 &&
    !event.metaKey &&
    !event.ctrlKey &&
    !event.shiftKey &&
    !event.altKey &&
    !event.defaultPrevented
  );
}
