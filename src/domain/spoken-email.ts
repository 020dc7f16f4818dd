/**
 * SPEC section 5: ' dot ' becomes '.', ' at ' or ' attherate ' become '@', and spaces are removed.
 * Speech engines also say the words at the ends and in capitals, so the match ignores case.
 */
export function spokenEmailToText(spoken: string): string {
  return ` ${spoken} `
    .replace(/\s+dot\s+/gi, ' . ')
    .replace(/\s+(?:at|attherate)\s+/gi, ' @ ')
    .replace(/\s+/g, '')
    .toLowerCase();
}
