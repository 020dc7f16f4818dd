// Whether the patient a record file names is the person it is imported for: their family name and first
// given name are both among the words of the name the person gave Kincare, compared without case or accents
// ("Eve Betterhalf" matches "eve BETTERHALF" and "Eve Marie Betterhalf"; "Isabella Jones" does not match
// "Eve Betterhalf"). A near miss is asked about, never silently accepted: the screen asks before adding.

const wordsOf = (name: string): string[] =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

export function sameName(inFile: string, inKincare: string): boolean {
  const fileWords = wordsOf(inFile);
  const known = new Set(wordsOf(inKincare));
  if (fileWords.length === 0 || known.size === 0) return false;
  const first = fileWords[0] ?? '';
  const last = fileWords[fileWords.length - 1] ?? '';
  return known.has(first) && known.has(last);
}
