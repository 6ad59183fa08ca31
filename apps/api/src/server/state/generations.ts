// The state's generation counters, by name: each moves by trigger on every change of what it guards, from any
// connection, and both dialects read them all in one statement at most once per turn (sqlite-turn-read.ts,
// postgres-query.ts's TurnGenerations).

/** The state's own counters, each by the statement reading it (one row, one column named generation). */
export const STATE_GENERATIONS = {
  auth: 'SELECT generation FROM auth_generation WHERE id = 1',
  tools: 'SELECT generation FROM tool_authorization_generation WHERE id = 1',
} as const;

export type StateGeneration = keyof typeof STATE_GENERATIONS;

/** One statement reading every counter of `counters`, each as a column of its name. */
export function generationsSql(counters: Record<string, string>): string {
  return `SELECT ${Object.entries(counters)
    .map(([name, sql]) => `(${sql}) AS ${name}`)
    .join(', ')}`;
}
