// tollgate trial start | show | stop: a policy's trial on live calls (docs/review.md, "Trials on live calls") from
// the terminal, as a client of a running server as the approvals commands are (docs/cli.md, "tollgate trial ...").
import { CliError, type CliIo, EXIT_OK } from '../io.ts';
import { jsonOut } from '../json-out.ts';
import { one, type ParsedOptions } from '../options.ts';
import { apiKeyOf, EXIT_REFUSED, type ServerClient, serverClient, serverUrlOf } from '../server-client.ts';
import { differenceLines, reportLines, type TrialDifference, type TrialReport } from './trial-lines.ts';
import { sampleRateOf, wholeNumberOf } from './trial-options.ts';

/** The differences route's largest page (routes/trials.ts): the fewest requests for a long list. */
const DIFFERENCES_PAGE = 500;

function clientOf(options: ParsedOptions): ServerClient {
  return serverClient(serverUrlOf(options), apiKeyOf());
}

const trialPath = (document: string) => `/v1/trials/${encodeURIComponent(document)}`;

function printReport(report: TrialReport, options: ParsedOptions, io: CliIo): void {
  io.stdout.write(options.json ? jsonOut(report) : reportLines(report));
}

/** `trial start DOCUMENT --version N --sample-rate RATE [--agent] [--tool] [--ends-at] [--max-samples]`. */
export async function trialStart(rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  const document = one(rest, 'DOCUMENT');
  const sequence = wholeNumberOf(options.version, 'version');
  if (sequence === undefined) throw new CliError('USAGE', 'missing --version N (the stored version to try)');
  const sampleRate = sampleRateOf(options['sample-rate']);
  const maxSamples = wholeNumberOf(options['max-samples'], 'max-samples');
  const client = clientOf(options);
  // --agent, --tool and --ends-at go as given: the server checks them, and its refusal is passed on.
  const report = await client.post<TrialReport>('/v1/trials', {
    document,
    sequence,
    sample_rate: sampleRate,
    ...(options.agent === undefined ? {} : { agent: options.agent }),
    ...(options.tool === undefined ? {} : { tool: options.tool }),
    ...(options['ends-at'] === undefined ? {} : { ends_at: options['ends-at'] }),
    ...(maxSamples === undefined ? {} : { max_samples: maxSamples }),
  });
  printReport(report, options, io);
  return EXIT_OK;
}

/** `trial show DOCUMENT [--differences]`: the report; a policy with no trial is said so, exit 0 (the API's 204). */
export async function trialShow(rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  const document = one(rest, 'DOCUMENT');
  const client = clientOf(options);
  const report = await client.getIfAny<TrialReport>(trialPath(document));
  if (report === undefined) {
    io.stdout.write(options.json ? 'null\n' : `${document} has no trial\n`);
    return EXIT_OK;
  }
  if (options.differences !== true) {
    printReport(report, options, io);
    return EXIT_OK;
  }
  const differences = await everyDifference(client, document);
  if (options.json) io.stdout.write(jsonOut({ trial: report, differences }));
  else io.stdout.write(`${reportLines(report)}${differenceLines(differences)}`);
  return EXIT_OK;
}

/** `trial stop DOCUMENT`: the trial stopped (nothing is promoted). */
export async function trialStop(rest: string[], options: ParsedOptions, io: CliIo): Promise<number> {
  const document = one(rest, 'DOCUMENT');
  const report = await clientOf(options).post<TrialReport>(`${trialPath(document)}/stop`, {});
  printReport(report, options, io);
  return EXIT_OK;
}

interface DifferencesPage {
  differences: TrialDifference[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Every differing call, newest first, following the route's pages to the last. */
async function everyDifference(client: ServerClient, document: string): Promise<TrialDifference[]> {
  const all: TrialDifference[] = [];
  let cursor: string | null = null;
  for (;;) {
    const query: string = `?limit=${DIFFERENCES_PAGE}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const page: DifferencesPage = await client.get<DifferencesPage>(`${trialPath(document)}/differences${query}`);
    if (!Array.isArray(page.differences)) throw notTheApi(client, 'a page without differences');
    all.push(...page.differences);
    if (page.has_more !== true) return all;
    // A page that says more follow must say where: else the loop would ask for the same page for ever.
    if (typeof page.next_cursor !== 'string' || page.next_cursor === cursor) throw notTheApi(client, 'more pages and no new cursor');
    cursor = page.next_cursor;
  }
}

function notTheApi(client: ServerClient, what: string): CliError {
  return new CliError(
    'SERVICE_ERROR',
    `SERVICE_ERROR: the server at ${client.url.origin} answered the differences with ${what}, not Tollgate's API`,
    EXIT_REFUSED,
  );
}
