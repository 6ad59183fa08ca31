// Writes a value read by the exact reader back as JSON text, every kept number with its own lexeme, so a
// recorded call replays as the agent sent it (JSON.stringify would refuse a JsonNumber: json-number.ts).
import { JsonNumber } from './json-number.ts';

/**
 * JSON text for a value, as JSON.stringify writes it (no spaces, members in their order, undefined members
 * left out), except that a {@link JsonNumber} is written as its lexeme.
 *
 * @example
 * writeJson({ qty: new JsonNumber('1.50') }); // '{"qty":1.50}'
 */
export function writeJson(value: unknown): string {
  if (value instanceof JsonNumber) return value.lexeme;
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item = value[i];
      out += item === undefined ? 'null' : writeJson(item);
    }
    return `${out}]`;
  }
  if (value !== null && typeof value === 'object' && !hasToJson(value)) {
    let out = '{';
    let first = true;
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined || typeof member === 'function') continue;
      out += `${first ? '' : ','}${JSON.stringify(key)}:${writeJson(member)}`;
      first = false;
    }
    return `${out}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
