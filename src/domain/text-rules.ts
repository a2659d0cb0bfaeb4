/**
 * NUL cannot be stored in PostgreSQL text (a query carrying one fails), and an unpaired surrogate
 * would be stored as U+FFFD. No stored value contains either, so text with one can only be refused
 * (request bodies) or not found (ids from cookies, URLs and protocol parameters).
 */
export const UNSTORABLE_TEXT = /\u0000|\p{Cs}/u;

export const isStorableText = (value: string): boolean => !UNSTORABLE_TEXT.test(value);

// Names and descriptions written by one person are read by others and by their assistants. These
// characters show nothing themselves but reorder or hide the text around them, so what a reader sees
// is not what the text says (a name that displays as "Course portal" while carrying other words).
const HIDDEN_FORMATTING = {
  'bidirectional control characters': [[0x200e, 0x200f], [0x202a, 0x202e], [0x2066, 0x2069]],
  'zero-width characters': [[0x200b, 0x200d], [0x2060, 0x2060], [0xfeff, 0xfeff]],
} as const satisfies Record<string, ReadonlyArray<readonly [number, number]>>;

const codePoint = (value: number) => `U+${value.toString(16).toUpperCase().padStart(4, '0')}`;

const KINDS = Object.entries(HIDDEN_FORMATTING).map(([name, ranges]) => ({
  name,
  pattern: new RegExp(`[${ranges.map(([first, last]) => `\\u{${first.toString(16)}}-\\u{${last.toString(16)}}`).join('')}]`, 'u'),
  list: ranges.map(([first, last]) => (first === last ? codePoint(first) : `${codePoint(first)}-${codePoint(last)}`)).join(', '),
}));

/** The refused characters in words, for guides and documentation: "bidirectional control characters (U+200E-U+200F, ...)". */
export const HIDDEN_FORMATTING_TEXT = KINDS.map((kind) => `${kind.name} (${kind.list})`).join(' or ');

/** Why text that people read is refused for hidden formatting, or undefined when it has none. */
export function invisibleFormattingProblem(value: string): string | undefined {
  for (const kind of KINDS) {
    const found = kind.pattern.exec(value);
    if (found) return `must not contain ${kind.name} (found ${codePoint(found[0].codePointAt(0)!)})`;
  }
  return undefined;
}
