/**
 * Frees a buffer's memory now instead of at some later garbage collection: its ArrayBuffer is
 * detached (transferred to an empty one), and V8 frees the bytes at once. For a stream of bulk
 * bytes (a document, 10 MiB each, twenty at once) that would otherwise leave tens of megabytes of
 * dead buffers for the collector, which runs late on a busy machine. Only a buffer that is the
 * whole of its ArrayBuffer is freed (never a view into a shared pool or a larger block), and only
 * by the code that holds the last use of it: any view left on it reads as empty afterwards.
 */
export function releaseBuffer(buffer: Uint8Array): void {
  const whole = buffer.buffer;
  const alone = buffer.byteOffset === 0 && buffer.byteLength === whole.byteLength;
  if (whole instanceof ArrayBuffer && !whole.detached && alone) whole.transfer(0);
}
