import { describe, expect, it } from 'vitest';
import { withoutNulBytes } from './entry.server';

describe('withoutNulBytes', () => {
  it('drops NUL bytes and passes a batch on as one chunk when the renderer flushes', async () => {
    const stream = withoutNulBytes();
    const out: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => out.push(chunk));
    stream.write(Buffer.from('<p>مر\0'));
    stream.write(Buffer.from('حبا</p>'));
    await new Promise((r) => setImmediate(r));
    expect(out).toHaveLength(0);
    stream.flush();
    await new Promise((r) => setImmediate(r));
    expect(out.map(String)).toEqual(['<p>مرحبا</p>']);
    stream.write(Buffer.from('<p>late</p>'));
    stream.end();
    await new Promise((r) => stream.on('end', r));
    expect(out.map(String)).toEqual(['<p>مرحبا</p>', '<p>late</p>']);
  });
});
