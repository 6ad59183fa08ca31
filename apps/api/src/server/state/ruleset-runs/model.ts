// How often a rule set ran, the model its SQLite and PostgreSQL stores share (sqlite.ts, postgres.ts). A concept of
// its own rather than a part of the decision log: its table holds the complete validate runs of a set (a failed run
// records nothing), written one at a time and never by the gate; the log is only read beside it, since the gate's
// decisions name the sets they ran among their versions. Read before archiving a set.

/** The window `runs_last_30_days` counts (rulesets/ruleset-view.ts). */
export const RUNS_WINDOW_DAYS = 30;
