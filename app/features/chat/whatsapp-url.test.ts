import { describe, expect, it } from 'vitest';
import { whatsappUrl } from './whatsapp-url';

describe('whatsappUrl', () => {
  it('keeps only the digits of the number and encodes the message', () => {
    expect(whatsappUrl('+971 50-123 4567', 'Hello! I need help & advice?')).toBe(
      'https://wa.me/971501234567?text=Hello!%20I%20need%20help%20%26%20advice%3F',
    );
  });

  it('encodes Arabic text, new lines and # safely', () => {
    const url = whatsappUrl('971501234567', 'مرحبا\n#1');
    expect(url).toBe(`https://wa.me/971501234567?text=${encodeURIComponent('مرحبا\n#1')}`);
    expect(new URL(url).searchParams.get('text')).toBe('مرحبا\n#1');
  });
});
