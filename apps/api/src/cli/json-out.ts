// --json output of what a server answered: laid out as JSON.stringify(value, null, 2) lays it out, but each number the
// exact reader kept as written (a JsonNumber: 0.5, 1.50) printed as its lexeme, so the answer is passed on as the
// server wrote it (JSON.stringify refuses a JsonNumber: packages/engine/src/source/json-number.ts).
import { JsonNumber } from '@tollgate/engine/source';

/**
 * The JSON text of `value`, indented by two spaces, with a newline at the end.
 *
 * @example
 * jsonOut({ sample_rate: new JsonNumber('0.5') }); // '{\n  "sample_rate": 0.5\n}\n'
 */
export function jsonOut(value: unknown): string {
  return `${written(value, '')}\n`;
}

function written(value: unknown, indent: string): string {
  if (value instanceof JsonNumber) return value.lexeme;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => `${inner}${item === undefined || typeof item === 'function' ? 'null' : written(item, inner)}`);
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined && typeof member !== 'function')
      .map(([key, member]) => `${inner}${JSON.stringify(key)}: ${written(member, inner)}`);
    return members.length === 0 ? '{}' : `{\n${members.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
