import { medianMs } from './sizeRequests.ts';
import { sizedService } from './sizedService.ts';

/**
 * `node test/size/measure.ts <sqlite|postgres> <count>...`: the median of 20 calls over HTTP of
 * every request of the size test, at each size, as a table (for the before/after of issue 28).
 */
const [storeName, ...counts] = process.argv.slice(2);
if (storeName !== 'sqlite' && storeName !== 'postgres')
  throw new Error('usage: measure.ts sqlite|postgres count...');
const columns = new Map<string, number[]>();
for (const count of counts.map(Number)) {
  const { service, requests, growMs } = await sizedService(storeName, count);
  console.error(`${storeName} ${count}: grown in ${(growMs / 1000).toFixed(1)} s`);
  try {
    for (const request of requests) {
      const median = await medianMs(request);
      columns.set(request.name, [...(columns.get(request.name) ?? []), median]);
      console.error(`  ${request.name}: ${median.toFixed(1)} ms`);
    }
  } finally {
    await service.close();
  }
}
console.log(`| request (${storeName}) | ${counts.join(' | ')} |`);
for (const [name, medians] of columns)
  console.log(`| ${name} | ${medians.map((m) => m.toFixed(1)).join(' | ')} |`);
