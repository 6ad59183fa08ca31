// The codes the Colang front end's problems carry (docs/colang.md, "Codes"). Users script against them, so
// a code is never renamed or reused.
import { codeView } from '../codes/index.ts';

/**
 * Every code a Colang problem can carry, with when it occurs.
 *
 * @example
 * COLANG_CODES.colang_limit.when // 'A guard nests more than 64 ...'
 */
export const COLANG_CODES = codeView('colang');

export type ColangCode = keyof typeof COLANG_CODES;
