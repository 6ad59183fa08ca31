// The state store on SQLite beside a data folder (the embedded default): each method hands off to its concept's
// sqlite.ts (state/<concept>/) on the one better-sqlite3 connection, so a call resolves without waiting on anything.
// recordDecision reads the session's history, decides and queues the row in one synchronous step: no other
// call of the process can come between (state-store.ts).
import type { Catalogue, Member, RulesetVerdict, ToolBinding } from '@tollgate/engine';
import type { ChainEntry } from '../record/chain.ts';
import {
  approvalClaimedBody,
  approvalRequestedBody,
  authorizationBody,
  chainDecision,
  decisionBodyText,
  TOOL_AUTHORIZED,
} from '../record/entries.ts';
import { RecordReader } from '../record/reader.ts';
import { closeSqliteRecord, type SqliteRecord, sqliteRecordOf } from '../record/sqlite.ts';
import type { RecordListener } from '../record/writer.ts';
import type { ActivationRow } from './activations/model.ts';
import { activationsOf, recordActivation } from './activations/sqlite.ts';
import type { ApprovalFilter, CounterMove, DecisionWrite } from './approvals/model.ts';
import { claimApproval, decideApproval, findApproval, listApprovals, listVotes, pendingSummary } from './approvals/sqlite.ts';
import type { Db } from './db.ts';
import type { DecisionFilter } from './decisions/model.ts';
import { countDecisions, findDecision, forgetOldArguments, listDecisions, recordedDecisions, sessionHistory } from './decisions/sqlite.ts';
import { closeDecisionLog, decisionLogOf, flushDecisions } from './decisions/sqlite-log.ts';
import type { PageKey } from './keyset.ts';
import type { CustodialKeys } from './members/custodial-keys.ts';
import { madeOrThrow, OPERATOR } from './members/identity-store.ts';
import type { Grant, Role } from './members/model.ts';
import { authenticateKey, countMembers, findMember, judgedMembers, members, SqliteIdentity, sealPlainKeys } from './members/sqlite.ts';
import type { LanguageRevision } from './nodes/model.ts';
import { listNodes, registerNode } from './nodes/sqlite.ts';
import { sqliteReadiness } from './readiness.ts';
import { recordRun, runsSince } from './ruleset-runs/sqlite.ts';
import { type DecisionRecord, type HistoryRead, NO_HISTORY, type StateObservation, type StateStore } from './state-store.ts';
import { SQLITE_MARK } from './statement.ts';
import type { Authorizer, DefinitionPin, ListedTool } from './tools/model.ts';
import {
  authorizationGeneration,
  authorizationsOf,
  authorizeBinding,
  authorizeBindings,
  bindingsAdopted,
  pinnedDigests,
  recordListed,
  seenDefinition,
  seenDefinitions,
  unauthorizedTools,
} from './tools/sqlite.ts';
import { SqliteTrialCounter } from './trials/sqlite.ts';
import { SqliteWebhooks } from './webhooks/sqlite.ts';

/**
 * The state store of one SQLite database.
 *
 * @example
 * const state = new SqliteStateStore(openDatabase('.tollgate-data/tollgate.db'), new CustodialKeys(secret));
 */
export class SqliteStateStore implements StateStore {
  readonly kind = 'sqlite' as const;
  readonly db: Db;
  readonly trialCounter: SqliteTrialCounter;
  readonly identity: SqliteIdentity;
  /** The record as this process writes it (docs/audit.md). */
  readonly record: SqliteRecord;
  readonly recordReader: RecordReader;
  readonly webhooks: SqliteWebhooks;

  /** The members' custodial keys, sealed with the operator's secret (members/custodial-keys.ts). */
  readonly custodial: CustodialKeys;

  /**
   * Seals any custodial key or webhook secret stored in plain text, or throws SecretMismatchError when `custodial`
   * opens none.
   */
  constructor(db: Db, custodial: CustodialKeys) {
    this.db = db;
    this.custodial = custodial;
    sealPlainKeys(db, custodial);
    this.trialCounter = new SqliteTrialCounter(db);
    this.webhooks = new SqliteWebhooks(db);
    // After the members' keys: a secret that does not open those is refused before any webhook secret is sealed with it.
    this.webhooks.sealPlainSecrets(custodial);
    this.record = sqliteRecordOf(db);
    this.identity = new SqliteIdentity(db, this.record, custodial);
    this.recordReader = new RecordReader(async <T>(sql: string, params: readonly unknown[]) => {
      flushDecisions(db);
      return db.prepare(sql).all(...params) as T[];
    }, SQLITE_MARK);
  }

  async authenticateKey(key: string, now: Date) {
    return authenticateKey(this.db, key, now);
  }
  async members() {
    return members(this.db);
  }
  async judgedMembers(requireMemberKeys = false) {
    return judgedMembers(this.db, requireMemberKeys);
  }
  judgedMembersSeen(): readonly Member[] {
    return judgedMembers(this.db);
  }
  async findMember(idOrName: string) {
    return findMember(this.db, idOrName);
  }
  async createMember(name: string, role: Role, now?: Date) {
    return madeOrThrow(await this.identity.addMember(name, role, OPERATOR, now));
  }
  async createKey(holder: { member: string } | { agent: string }, grants: Grant[] = [], now?: Date) {
    return madeOrThrow(await this.identity.issueKey({ holder, grants }, OPERATOR, now)).key;
  }
  async countMembers() {
    return countMembers(this.db);
  }

  async findApproval(id: string) {
    return findApproval(this.db, id);
  }
  async listApprovals(filter: ApprovalFilter, now: Date, limit: number, after?: PageKey) {
    return listApprovals(this.db, filter, now, limit, after);
  }
  async decideApproval(id: string, write: DecisionWrite, now: Date, counter?: CounterMove) {
    return this.record.around((add) =>
      this.db.transaction(() => {
        const outcome = decideApproval(this.db, id, write, now, counter);
        if (outcome.ok) chainDecision(outcome, add);
        return outcome;
      })(),
    );
  }
  async listVotes(id: string) {
    return listVotes(this.db, id);
  }
  async claimApproval(id: string, digest: string, now: Date) {
    return this.record.around((add) =>
      this.db.transaction(() => {
        const outcome = claimApproval(this.db, id, digest, now);
        if (outcome.ok) add('approval.claimed', outcome.row.claimed_at as string, outcome.row.id, approvalClaimedBody(outcome.row));
        return outcome;
      })(),
    );
  }

  async recordDecision(
    agent: string,
    session: string | undefined,
    decide: (history: HistoryRead) => DecisionRecord,
  ): Promise<DecisionRecord> {
    const record = decide(session === undefined ? NO_HISTORY : () => sessionHistory(this.db, agent, session));
    const log = decisionLogOf(this.db);
    const { row, approval } = record;
    if (approval) {
      log.recordHeld(row, approval, () => {
        const mark = this.record.writer.position;
        const entries = [
          this.record.entry('decision', row.created_at, row.call_id, decisionBodyText(row)),
          this.record.entry('approval.requested', approval.created_at, approval.id, approvalRequestedBody(approval)),
        ];
        return { entries, rewind: () => this.record.writer.rewind(mark) };
      });
    } else {
      log.record(row, this.record.decisions);
    }
    return record;
  }
  async flushDecisions() {
    flushDecisions(this.db);
  }
  async findDecision(callId: string) {
    return findDecision(this.db, callId);
  }
  async listDecisions(filter: DecisionFilter) {
    return listDecisions(this.db, filter);
  }
  async recordedDecisions(filter: DecisionFilter) {
    return recordedDecisions(this.db, filter);
  }
  async sessionHistory(agent: string, session: string) {
    return sessionHistory(this.db, agent, session);
  }
  async forgetOldArguments(before: Date) {
    return forgetOldArguments(this.db, before);
  }
  async countDecisions() {
    return countDecisions(this.db);
  }
  async observe(now: Date): Promise<StateObservation> {
    const log = decisionLogOf(this.db);
    return {
      pendingApprovals: pendingSummary(this.db, now),
      decisionsQueued: log.pending,
      oldestQueuedAt: log.unwritten()[0]?.created_at ?? null,
    };
  }

  async authorizationGeneration() {
    return authorizationGeneration(this.db);
  }
  async authorizationsOf(catalogue: string) {
    return authorizationsOf(this.db, catalogue);
  }
  async authorizeBinding(catalogue: string, binding: ToolBinding, by: Authorizer, now: Date, pin?: DefinitionPin) {
    return this.record.around((add) =>
      this.db.transaction(() => {
        const row = authorizeBinding(this.db, catalogue, binding, by, now, pin);
        add(TOOL_AUTHORIZED, row.authorized_at, null, authorizationBody(row));
        return row;
      })(),
    );
  }
  async authorizeBindings(bindings: readonly { catalogue: string; binding: ToolBinding }[], by: Authorizer, now: Date) {
    this.record.around((add) =>
      this.db.transaction(() => {
        for (const row of authorizeBindings(this.db, bindings, by, now))
          add(TOOL_AUTHORIZED, row.authorized_at, null, authorizationBody(row));
      })(),
    );
  }
  async bindingsAdopted(mark?: Date) {
    return bindingsAdopted(this.db, mark);
  }
  async unauthorizedTools(catalogueId: string, catalogue: Catalogue) {
    return unauthorizedTools(this.db, catalogueId, catalogue);
  }
  async recordListed(server: string, tools: readonly ListedTool[], now: Date) {
    recordListed(this.db, server, tools, now);
  }
  async seenDefinitions() {
    return seenDefinitions(this.db);
  }
  async seenDefinition(server: string, tool: string) {
    return seenDefinition(this.db, server, tool);
  }
  async pinnedDigests(catalogue: string) {
    return pinnedDigests(this.db, catalogue);
  }

  async registerNode(options: { version: string; languageRevision: LanguageRevision; heartbeatMs?: number; now?: () => Date }) {
    return registerNode(this.db, options);
  }
  async listNodes(now?: Date) {
    return listNodes(this.db, now);
  }
  async readiness() {
    return sqliteReadiness(this.db);
  }

  onRecord(listener: RecordListener) {
    return this.record.writer.onRecord(listener);
  }
  get recordWriter() {
    return this.record.writer;
  }
  async chain(kind: string, at: string, ref: string | null, body: ChainEntry['body']) {
    this.record.around((add) => this.db.transaction(() => add(kind, at, ref, body))());
  }
  async checkpointRecord(now?: Date) {
    return this.record.checkpoint(now);
  }

  async recordActivation(row: ActivationRow) {
    recordActivation(this.db, row);
  }
  async activationsOf(document: string) {
    return activationsOf(this.db, document);
  }

  async recordRulesetRun(ruleset: string, version: number, verdict: RulesetVerdict, at: Date) {
    recordRun(this.db, ruleset, version, verdict, at);
  }
  async rulesetRunsSince(ruleset: string, since: Date) {
    return runsSince(this.db, ruleset, since);
  }

  /** Writes what the decision log has queued, then closes the database. */
  async close() {
    closeDecisionLog(this.db);
    closeSqliteRecord(this.db);
    this.db.close();
  }
}
