// The one-character escapes of a JSON string, shared by the exact reader (json-text.ts) and the API's one-pass
// reader of a call's body (apps/api/src/server/call-body-reader.ts).

/** A JSON string's one-character escapes, by the character code after the backslash (RFC 8259, 7). */
export const JSON_ESCAPES: Readonly<Record<number, string>> = {
  34: '"',
  92: '\\',
  47: '/',
  98: '\b',
  102: '\f',
  110: '\n',
  114: '\r',
  116: '\t',
};
