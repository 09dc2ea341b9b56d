/**
 * Reads a request body up to a size limit. A declared Content-Length above the limit is
 * refused before reading anything; a body that grows past it while streaming is cut off.
 */
export class BodyTooLargeError extends Error {
  readonly status = 413;
  constructor(readonly limit: number) {
    super(`Request body larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('Content-Length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLargeError(maxBytes);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
