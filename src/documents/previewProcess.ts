import sharp from 'sharp';

/**
 * The preview's own process (preview.ts spawns it, one per preview): reads an image on stdin,
 * writes its preview on stdout, a JPEG of at most `side` pixels on its longer side, decoded with
 * at most `maxPixels`, upright, without metadata. It holds nothing of the service's (no key, no
 * connection, no environment), so a hostile image that found a flaw in a decoder finds nothing to
 * take, and a crash or a loop in one ends only this process. Its memory (libvips's buffers, the
 * allocator's arenas, which glibc keeps once grown) goes back to the system when it exits.
 * Arguments: maxPixels, side. Exit 0 with the preview; otherwise 1 with a line on stderr.
 */

const [maxPixels, side] = process.argv.slice(2).map(Number);
sharp.concurrency(1);
sharp.cache(false);

const parts: Buffer[] = [];
for await (const part of process.stdin) parts.push(part as Buffer);
try {
  const preview = await sharp(Buffer.concat(parts), {
    limitInputPixels: maxPixels,
    sequentialRead: true,
    failOn: 'error',
  })
    .autoOrient()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 82, progressive: false })
    .toBuffer();
  process.stdout.end(preview);
} catch (error) {
  // What libvips says of the file (its format, a limit), never a byte of it.
  process.stderr.write(`${error instanceof Error ? error.message.split('\n')[0] : 'failed'}\n`);
  process.exitCode = 1;
}
