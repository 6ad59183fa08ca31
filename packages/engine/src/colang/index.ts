// The Colang dialect's front end: text with lines in, canonical rulebook IR out.

export * from './codes.ts';
export * from './lint.ts';
export * from './parse.ts';
