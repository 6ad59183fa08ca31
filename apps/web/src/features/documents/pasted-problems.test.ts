import { describe, expect, it } from 'vitest';
import { pastedRefusalOf, problemLine } from './pasted-problems.ts';

describe('a pasted text refused', () => {
  it('reads the side and problems of a refusal, and nothing else', () => {
    const problem = { code: 'DUPLICATE_MEMBER', message: 'default is named twice', line: 4, column: 3 };
    expect(pastedRefusalOf({ side: 'candidate', problems: [problem, 'junk'] })).toEqual({ side: 'candidate', problems: [problem] });
    expect(pastedRefusalOf({ problems: [problem] })).toBeUndefined();
    expect(pastedRefusalOf({ side: 'left', problems: [] })).toBeUndefined();
    expect(pastedRefusalOf(null)).toBeUndefined();
  });

  it('says where each problem is: line and column, else its pointer', () => {
    expect(problemLine({ code: 'DUPLICATE_MEMBER', message: 'twice', line: 4, column: 3 })).toBe(
      'line 4, column 3: DUPLICATE_MEMBER: twice',
    );
    expect(problemLine({ code: 'INVALID_VALUE', message: 'no', path: '/rules/5/effect' })).toBe('/rules/5/effect: INVALID_VALUE: no');
    expect(problemLine({ code: 'INVALID_TYPE', message: 'not an object', path: '' })).toBe('the text: INVALID_TYPE: not an object');
  });
});
