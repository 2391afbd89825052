/**
 * Blocking keys: a name is scored only against the listed names that share keys with it, so that
 * screening one applicant touches a few hundred of 30,000 names. A token's key is its consonant
 * skeleton (first letter, then the consonants without h, w, y, doubles collapsed, c/k/q as one,
 * z as s, ph as f), three letters long: transliterations mostly differ in vowels (Mohammed,
 * Muhammad, Mohamed are all `mmd`). A skeleton shorter than that (`li`, `yao`, `yi` are `l`, `y`)
 * would block too much together, so a short token is its own key.
 */
function skeleton(text: string, length: number): string {
  const mapped = text.replace(/ph/g, 'f').replace(/[ckq]/g, 'k').replace(/z/g, 's');
  let key = mapped[0] ?? '';
  for (let i = 1; i < mapped.length && key.length < length; i++) {
    const c = mapped[i]!;
    if ('aeiouhwy'.includes(c)) continue;
    if (c !== key[key.length - 1]) key += c;
  }
  return key;
}

export function skeletonKey(token: string): string {
  const key = skeleton(token, 3);
  return key.length < 3 ? `:${token}` : key;
}

/** The key of a whole name written as one string (spacing free): its skeleton, or itself if short. */
export function joinedKey(joined: string): string {
  const key = skeleton(joined, 5);
  return key.length < 4 ? `=${joined}` : `=${key}`;
}

/** Abu, Umm (father of, mother of): the start of many listed aliases. */
const KUNYA = new Set(['abu', 'abou', 'umm', 'um']);

/** Names longer than this, as one string, have no key of the whole. */
const JOINED_KEY_LETTERS = 16;

/**
 * The keys of a name. A name of two tokens or more is found through pairs of its tokens: the
 * skeletons of any two (in either order: reordered tokens, a middle name left out, vowels spelled
 * otherwise), or the skeleton of one and the first two letters of another (a typo later in the
 * other; not by `Abu`'s); through the whole name as one string when it is short (spacing:
 * `XIAOMING`, `XIAO MING`); and through its Chinese characters. A single token is found through its own key, by queries of any length.
 * `joined` is the name as one string (listed) or in each of its rotations (query).
 */
export function nameKeys(
  tokens: readonly string[],
  joined: string | readonly string[],
  han: string,
  side: 'listed' | 'query',
): string[] {
  const keys: string[] = [];
  const skeletons = tokens.map(skeletonKey);
  if (side === 'query' || tokens.length === 1) for (const s of skeletons) keys.push(`s${s}`);
  if (side === 'query' && tokens.length === 1) for (const s of skeletons) keys.push(`t${s}`);
  if (side === 'listed') for (const s of skeletons) keys.push(`t${s}`);
  for (let i = 0; i < tokens.length; i++) {
    for (let j = 0; j < tokens.length; j++) {
      if (i === j) continue;
      if (i < j) keys.push(`p${[skeletons[i], skeletons[j]].sort().join('+')}`);
      // Not by a kunya's first letters: every `Abu X` would share them with `Abdulla`.
      if (!KUNYA.has(tokens[j]!)) keys.push(`o${skeletons[i]}>${tokens[j]!.slice(0, 2)}`);
    }
  }
  for (const whole of typeof joined === 'string' ? [joined] : joined) {
    // Spacing varies in short names (XIAO MING, XIAOMING); in a long one the key would be that
    // of its first token alone, shared by thousands (Abdulrahman ...).
    if (whole.length <= JOINED_KEY_LETTERS) keys.push(joinedKey(whole));
  }
  if (han !== '') keys.push(`h:${han}`);
  return keys;
}
