import { describe, expect, it } from 'vitest';
import { textProblem } from './text-fields.ts';
import { invisibleFormattingProblem, isStorableText } from './text-rules.ts';

const codePoints = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, index) => first + index);

describe('text rules', () => {
  it('refuses every bidirectional control and zero-width character, naming the one found', () => {
    for (const point of [...codePoints(0x202a, 0x202e), ...codePoints(0x2066, 0x2069), 0x200e, 0x200f]) {
      const hex = point.toString(16).toUpperCase();
      expect(invisibleFormattingProblem(`a${String.fromCodePoint(point)}b`)).toBe(`must not contain bidirectional control characters (found U+${hex})`);
    }
    for (const point of [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff]) {
      const hex = point.toString(16).toUpperCase();
      expect(invisibleFormattingProblem(`a${String.fromCodePoint(point)}b`)).toBe(`must not contain zero-width characters (found U+${hex})`);
    }
  });

  it('leaves their neighbours and ordinary text of any script alone', () => {
    for (const point of [0x200a, 0x2010, 0x2029, 0x202f, 0x2061, 0x2065, 0x206a, 0xfefe, 0xff0c]) {
      expect(invisibleFormattingProblem(`a${String.fromCodePoint(point)}b`)).toBeUndefined();
    }
    expect(invisibleFormattingProblem('Café 课程 — Поречье ✓ עברית 🎓')).toBeUndefined();
  });

  it('is part of the free-text rule every name and description goes through', () => {
    expect(textProblem('Course \u202elatrop', { required: true, maxLength: 200, singleLine: true })).toBe('must not contain bidirectional control characters (found U+202E)');
    expect(textProblem('Line one\nline two', { required: false, maxLength: 200 })).toBeUndefined();
  });

  it('knows which text cannot be stored at all', () => {
    expect(isStorableText('nul\u0000')).toBe(false);
    expect(isStorableText('half \ud800 pair')).toBe(false);
    expect(isStorableText('fine 🎓')).toBe(true);
  });
});
