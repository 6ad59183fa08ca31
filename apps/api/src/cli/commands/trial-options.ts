// The flags of `tollgate trial start` read exactly (docs/cli.md, "tollgate trial start"): a rate is compared as
// written, never through a double, which would take 1.00000000000000000001 for 1 and so start a trial the person
// did not ask for.
import { CliError } from '../io.ts';

/**
 * The longest RATE: at most 32 characters keep the least rate accepted at 1e-30, so none is sent as a double
 * that rounds to 0, which the server would refuse only after the request.
 */
export const MAX_RATE_LENGTH = 32;

/** `--sample-rate RATE`: a plain decimal (digits, or digits, a point and digits) above 0 and at most 1. */
export function sampleRateOf(text: string | undefined): number {
  if (text === undefined) throw new CliError('USAGE', 'missing --sample-rate RATE (a share above 0 and at most 1, such as 0.25)');
  const plain = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (plain !== null && text.length <= MAX_RATE_LENGTH) {
    const whole = (plain[1] as string).replace(/^0+/, '');
    const fraction = plain[2] ?? '';
    const aboveZero = /[1-9]/.test(whole + fraction);
    const atMostOne = whole === '' || (whole === '1' && !/[1-9]/.test(fraction));
    if (aboveZero && atMostOne) return Number(text);
  }
  throw new CliError(
    'USAGE',
    `--sample-rate is a plain decimal above 0 and at most 1 (such as 0.25 or 1), at most ${MAX_RATE_LENGTH} characters, not ${JSON.stringify(text)}`,
  );
}

/** A whole number from 1 given as --`flag` (canonical digits, at most 15 of them: a safe integer), or undefined. */
export function wholeNumberOf(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9][0-9]{0,14}$/.test(text)) throw new CliError('USAGE', `--${flag} is a whole number from 1, not ${JSON.stringify(text)}`);
  return Number(text);
}
