/**
 * Reads a value the API sends as one of a known set of words (statuses, severities), ignoring
 * case and surrounding space; anything else, or no string at all, becomes the given fallback.
 */
export function enumReader<const T extends string, F extends string>(known: readonly T[], fallback: F): (value: unknown) => T | F {
  const words: ReadonlySet<string> = new Set(known);
  const isKnown = (word: string): word is T => words.has(word);
  return (value) => {
    const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
    return isKnown(word) ? word : fallback;
  };
}
