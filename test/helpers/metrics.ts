/** Prometheus text exposition, read back: `name{label="v",...}` (labels sorted) -> value. */
export type Samples = Map<string, number>;

export function parseMetrics(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null) continue;
    const labels = [...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)]
      .map(([, k, v]) => `${k}="${v}"`)
      .sort();
    samples.set(labels.length === 0 ? m[1]! : `${m[1]}{${labels.join(',')}}`, Number(m[3]));
  }
  return samples;
}

/** One sample's value, 0 when absent (a counter never incremented is not shown). */
export function sample(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  const keys = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort();
  return samples.get(keys.length === 0 ? name : `${name}{${keys.join(',')}}`) ?? 0;
}

export async function scrape(url: string): Promise<Samples> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`scrape ${url}: HTTP ${response.status}`);
  return parseMetrics(await response.text());
}
