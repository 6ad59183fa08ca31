// Rule sheets: the YAML a person reads aloud, compiled to Colang, a rulebook and a catalogue overlay.

export * from './codes.ts';
export * from './compile.ts';
export * from './emit-colang.ts';
export * from './lint.ts';
export * from './read-sheet.ts';
