/** The flags of matched characters, kept between calls (screening calls this thousands of times). */
let flagsA = new Uint8Array(64);
let flagsB = new Uint8Array(64);

/**
 * Jaro-Winkler similarity of two strings (0 to 1): the Jaro score, raised for a common prefix of up
 * to four characters (p = 0.1), as Winkler proposed for names; `prefixScale` 0 gives plain Jaro.
 * Allocation-free: two flag arrays kept between calls, cleared for the lengths compared.
 */
export function jaroWinkler(a: string, b: string, prefixScale = 0.1): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  if (flagsA.length < la) flagsA = new Uint8Array(la * 2);
  if (flagsB.length < lb) flagsB = new Uint8Array(lb * 2);
  const matchedA = flagsA.fill(0, 0, la);
  const matchedB = flagsB.fill(0, 0, lb);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(lb - 1, i + window);
    const code = a.charCodeAt(i);
    for (let j = from; j <= to; j++) {
      if (matchedB[j] === 0 && b.charCodeAt(j) === code) {
        matchedA[i] = 1;
        matchedB[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if (matchedA[i] === 0) continue;
    while (matchedB[k] === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  const jaro = (matches / la + matches / lb + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  const most = Math.min(4, la, lb);
  while (prefix < most && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * prefixScale * (1 - jaro);
}
