/** https://wa.me/{digits}?text={encoded message}; the number keeps its digits only. */
export function whatsappUrl(number: string, message: string): string {
  const digits = number.replace(/\D/g, '');
  return `https://wa.me/${digits}?text=${encodeURIComponent(message)}`;
}
