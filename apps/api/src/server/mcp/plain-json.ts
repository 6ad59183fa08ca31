// The SDK's copy of a message the exact reader read (docs/mcp.md, "One read per message"): each message is read
// once, by the exact reader; the gate decides on that value, and the SDK, which expects the values the platform's
// own JSON parser makes (doubles, plain objects), is handed a plain copy of it. Nothing here parses text.
import { JsonNumber } from '@tollgate/engine/source';

/**
 * A plain copy of a value the exact reader read: every kept number as the double the platform's parser reads from
 * its lexeme, every object and array new (the SDK never holds a part of the exact value), members in their order.
 *
 * @example
 * plainJson({ amount: new JsonNumber('1.50'), items: [1, 'a'] }); // { amount: 1.5, items: [1, 'a'] }
 */
export function plainJson(value: unknown): unknown {
  if (value instanceof JsonNumber) return Number(value.lexeme);
  if (Array.isArray(value)) return value.map(plainJson);
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const member = plainJson((value as Record<string, unknown>)[key]);
      // Assigned, which keeps the copy's shape fast, but for a member named __proto__: defined, so it stays a member
      // as the platform's parser makes it (assigned, it would set the copy's prototype).
      if (key === '__proto__') Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true });
      else copy[key] = member;
    }
    return copy;
  }
  return value;
}
