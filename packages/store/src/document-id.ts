// Document ids: paths with forward slashes, refused when they would leave the folder or name a file
// Windows reads as a device. Both stores refuse the same ids, so a memory store never accepts what a
// folder store could not hold.

export const MAX_ID_LENGTH = 512;
/** Most file systems hold names of at most 255 bytes; the folder store adds a temp prefix and suffix. */
export const MAX_SEGMENT_BYTES = 200;
const RESERVED = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\..*)?$/i;
const FORBIDDEN = /[<>:"|?*\\]/;

/**
 * Why an id is refused, or undefined when it is a good one.
 *
 * @example
 * idProblem('policies/refunds.policy.json') // undefined
 * idProblem('../x') // 'the id leaves the folder: ".." is not a path segment here'
 */
export function idProblem(id: string): string | undefined {
  if (typeof id !== 'string' || id.length === 0) return 'an id is a non-empty path such as policies/refunds.policy.json';
  if (id.length > MAX_ID_LENGTH) return `an id is at most ${MAX_ID_LENGTH} characters`;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 32 || c === 127) return c === 0 ? 'the id has a NUL byte' : 'the id has a control character';
  }
  if (id.startsWith('/') || /^[A-Za-z]:/.test(id)) return 'the id is an absolute path; ids are relative to the folder';
  if (FORBIDDEN.test(id))
    return 'the id has a character Windows cannot hold in a file name (< > : " | ? * or \\); use forward slashes between folders';
  for (const segment of id.split('/')) {
    if (segment === '') return 'the id has an empty path segment (a leading, trailing or doubled /)';
    if (segment === '..' || segment === '.') return `the id leaves the folder: "${segment}" is not a path segment here`;
    if (segment.startsWith('.')) return `"${segment}" starts with a dot: hidden files and the .tollgate state folder are not documents`;
    if (RESERVED.test(segment)) return `"${segment}" is a name Windows reads as a device (CON, PRN, AUX, NUL, COM1-9, LPT1-9)`;
    if (/[ .]$/.test(segment)) return `"${segment}" ends with a dot or space, which Windows drops`;
    if (new TextEncoder().encode(segment).length > MAX_SEGMENT_BYTES)
      return `a path segment is at most ${MAX_SEGMENT_BYTES} bytes, the longest file name a file system holds`;
  }
  return undefined;
}
