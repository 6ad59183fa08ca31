// The rulebook: its IR, checks, the catalogue format, the overlay, guard evaluation and the tool check.

export * from './canonical.ts';
export * from './catalogue.ts';
export * from './check.ts';
export * from './expr.ts';
export * from './overlay.ts';
export * from './tool-check.ts';
export * from './types.ts';
