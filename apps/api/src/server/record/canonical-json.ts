// RFC 8785 (the JSON Canonicalization Scheme) as the record writes it on the gate's path (docs/audit.md): an entry's
// body is most often a flat object of strings, whole numbers, booleans and nulls, which is written here in one pass;
// anything else goes to the `canonicalize` package, which stays the oracle
// (apps/api/test/record-canonical.property.test.ts checks the two agree on generated values). Both sort members by
// UTF-16 code units and write strings and numbers as ECMAScript's JSON.stringify does, which RFC 8785 adopts.
import canonicalize from 'canonicalize';

/** The canonical text of a JSON value. Throws on a value JSON cannot state. */
export function canonicalText(value: unknown): string {
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object).sort();
    let out = '{';
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const member = object[key];
      if (
        typeof member !== 'string' &&
        typeof member !== 'boolean' &&
        member !== null &&
        !(typeof member === 'number' && Number.isFinite(member))
      )
        return viaPackage(value);
      out += `${i === 0 ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(member)}`;
    }
    return `${out}}`;
  }
  return viaPackage(value);
}

function viaPackage(value: unknown): string {
  const text = canonicalize(value);
  // canonicalize answers undefined only for a value JSON cannot state (undefined, a function).
  if (text === undefined) throw new TypeError('not a JSON value');
  return text;
}
