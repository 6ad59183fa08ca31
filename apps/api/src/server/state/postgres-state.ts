// The state store on PostgreSQL, shared by several nodes (docs/deploy.md, "The state stores"): the same answers
// as SqliteStateStore, method by method (apps/api/test/state-contract.test.ts runs one suite against both), with
// caches trusted only while generation counters stand still, every approval transition one conditional UPDATE,
// and each decision acknowledged only once written (decisions/postgres-log.ts). The schema is
// postgres-migrations.ts's; the pool is the caller's, and close() leaves it open.
import type { Catalogue, Member, RulesetVerdict, ToolBinding } from '@tollgate/engine';
import type pg from 'pg';
import type { ChainEntry } from '../record/chain.ts';
import { approvalClaimedBody, chainDecision } from '../record/entries.ts';
import { PostgresRecord } from '../record/postgres.ts';
import { RecordReader } from '../record/reader.ts';
import type { RecordListener } from '../record/writer.ts';
import type { ActivationRow } from './activations/model.ts';
import { activationsOf, recordActivation } from './activations/postgres.ts';
import type { ApprovalFilter, CounterMove, DecisionWrite } from './approvals/model.ts';
import { claimApproval, decideApproval, findApproval, listApprovals, listVotes, pendingSummary } from './approvals/postgres.ts';
import type { DecisionFilter } from './decisions/model.ts';
import { countDecisions, findDecision, forgetOldArguments, listDecisions, recordedDecisions } from './decisions/postgres.ts';
import { PostgresDecisionLog } from './decisions/postgres-log.ts';
import { STATE_GENERATIONS } from './generations.ts';
import type { PageKey } from './keyset.ts';
import type { CustodialKeys } from './members/custodial-keys.ts';
import { madeOrThrow, OPERATOR } from './members/identity-store.ts';
import type { Grant, Role } from './members/model.ts';
import { PostgresMembers } from './members/postgres.ts';
import type { LanguageRevision } from './nodes/model.ts';
import { PostgresNodes } from './nodes/postgres.ts';
import { rowsOf, TurnGenerations } from './postgres-query.ts';
import { postgresReadiness } from './readiness.ts';
import { recordRun, runsSince } from './ruleset-runs/postgres.ts';
import type { DecisionRecord, HistoryRead, StateObservation, StateStore } from './state-store.ts';
import { POSTGRES_MARK } from './statement.ts';
import type { Authorizer, DefinitionPin, ListedTool } from './tools/model.ts';
import { PostgresToolState } from './tools/postgres.ts';
import { PostgresTrialCounter } from './trials/postgres.ts';
import { PostgresWebhooks } from './webhooks/postgres.ts';

/**
 * The state store of one PostgreSQL schema (migrated by `migratePostgres(pool, POSTGRES_STATE_MIGRATIONS)`).
 *
 * @example
 * const state = await PostgresStateStore.open(new pg.Pool({ connectionString }));
 */
export class PostgresStateStore implements StateStore {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;
  readonly trialCounter: PostgresTrialCounter;
  private readonly auth: PostgresMembers;
  /** Members and keys as the product manages them (members/identity-store.ts). */
  readonly identity: PostgresMembers;
  private readonly log: PostgresDecisionLog;
  private readonly tools: PostgresToolState;
  private readonly nodes: PostgresNodes;
  /** This node's writer of the record (docs/audit.md). */
  readonly record: PostgresRecord;
  readonly recordReader: RecordReader;
  readonly webhooks: PostgresWebhooks;

  /**
   * `generations` reads the state's counters (STATE_GENERATIONS), with any others a node checks each turn in the
   * same statement (postgres/postgres-context.ts adds the documents'); its own unless given.
   */
  /** Errors the pool reported (a connection lost while idle, one that failed to open), for /metrics. */
  private poolErrors = 0;

  /** The members' custodial keys, sealed with the operator's secret (members/custodial-keys.ts). */
  readonly custodial: CustodialKeys;

  constructor(pool: pg.Pool, custodial: CustodialKeys, generations: TurnGenerations = new TurnGenerations(pool, STATE_GENERATIONS)) {
    this.pool = pool;
    this.custodial = custodial;
    pool.on('error', () => {
      this.poolErrors++;
    });
    this.trialCounter = new PostgresTrialCounter(pool);
    this.webhooks = new PostgresWebhooks(pool);
    this.record = new PostgresRecord(pool);
    this.auth = new PostgresMembers(pool, generations.counter('auth'), this.record, custodial);
    this.identity = this.auth;
    this.log = new PostgresDecisionLog(pool, this.record);
    this.recordReader = new RecordReader(async <T>(sql: string, params: readonly unknown[]) => {
      await this.log.flush();
      return rowsOf<T>(pool, sql, params);
    }, POSTGRES_MARK);
    this.tools = new PostgresToolState(pool, generations.counter('tools'), this.record);
    this.nodes = new PostgresNodes(pool);
  }

  /**
   * A store whose custodial keys and webhook secrets are sealed (members/custodial-keys.ts, webhooks/sealed-secret.ts:
   * SecretMismatchError when `custodial` opens none) and whose members are read already, so judgedMembersSeen()
   * answers from the first call.
   */
  static async open(pool: pg.Pool, custodial: CustodialKeys, generations?: TurnGenerations): Promise<PostgresStateStore> {
    const store = new PostgresStateStore(pool, custodial, generations);
    await store.auth.sealPlainKeys();
    // After the members' keys: a secret that does not open those is refused before any webhook secret is sealed with it.
    await store.webhooks.sealPlainSecrets(custodial);
    await store.judgedMembers();
    return store;
  }

  authenticateKey(key: string, now: Date) {
    return this.auth.authenticateKey(key, now);
  }
  members() {
    return this.auth.members();
  }
  judgedMembers(requireMemberKeys = false) {
    return this.auth.judgedMembers(requireMemberKeys);
  }
  judgedMembersSeen(): readonly Member[] {
    return this.auth.judgedMembersSeen();
  }
  findMember(idOrName: string) {
    return this.auth.findMember(idOrName);
  }
  async createMember(name: string, role: Role, now?: Date) {
    return madeOrThrow(await this.auth.addMember(name, role, OPERATOR, now));
  }
  async createKey(holder: { member: string } | { agent: string }, grants: Grant[] = [], now?: Date) {
    return madeOrThrow(await this.auth.issueKey({ holder, grants }, OPERATOR, now)).key;
  }
  countMembers() {
    return this.auth.countMembers();
  }

  findApproval(id: string) {
    return findApproval(this.pool, id);
  }
  listApprovals(filter: ApprovalFilter, now: Date, limit: number, after?: PageKey) {
    return listApprovals(this.pool, filter, now, limit, after);
  }
  decideApproval(id: string, write: DecisionWrite, now: Date, counter?: CounterMove) {
    return this.record.inChainedTransaction(async (client, append) => {
      const outcome = await decideApproval(client, id, write, now, counter);
      if (outcome.ok) chainDecision(outcome, append);
      return outcome;
    });
  }
  listVotes(id: string) {
    return listVotes(this.pool, id);
  }
  claimApproval(id: string, digest: string, now: Date) {
    return this.record.inChainedTransaction(async (client, append) => {
      const outcome = await claimApproval(client, id, digest, now);
      if (outcome.ok) append('approval.claimed', outcome.row.claimed_at as string, outcome.row.id, approvalClaimedBody(outcome.row));
      return outcome;
    });
  }

  recordDecision(agent: string, session: string | undefined, decide: (history: HistoryRead) => DecisionRecord): Promise<DecisionRecord> {
    return this.log.record(agent, session, decide);
  }
  flushDecisions() {
    return this.log.flush();
  }
  // Every read of decisions waits for the batch being written first, as SQLite's reads flush its log.
  async findDecision(callId: string) {
    await this.log.flush();
    return findDecision(this.pool, callId);
  }
  async listDecisions(filter: DecisionFilter) {
    await this.log.flush();
    return listDecisions(this.pool, filter);
  }
  async recordedDecisions(filter: DecisionFilter) {
    await this.log.flush();
    return recordedDecisions(this.pool, filter);
  }
  sessionHistory(agent: string, session: string) {
    return this.log.sessionHistory(agent, session);
  }
  async forgetOldArguments(before: Date) {
    await this.log.flush();
    // The histories read so far hold arguments this forgets: they are read again.
    this.log.sessions.clear();
    return forgetOldArguments(this.pool, before);
  }
  async countDecisions() {
    await this.log.flush();
    return countDecisions(this.pool);
  }
  async observe(now: Date): Promise<StateObservation> {
    // The queue and the pool are read as they stand when asked, before the round trip that would let the queue
    // drain meanwhile (as SQLite's observe reads them, in one turn).
    const { totalCount, idleCount, waitingCount } = this.pool;
    const decisionsQueued = this.log.queued;
    const oldestQueuedAt = this.log.oldestUnwritten();
    return {
      pendingApprovals: await pendingSummary(this.pool, now),
      decisionsQueued,
      oldestQueuedAt,
      pool: { total: totalCount, idle: idleCount, waiting: waitingCount, errors: this.poolErrors },
    };
  }

  authorizationGeneration() {
    return this.tools.authorizationGeneration();
  }
  authorizationsOf(catalogue: string) {
    return this.tools.authorizationsOf(catalogue);
  }
  authorizeBinding(catalogue: string, binding: ToolBinding, by: Authorizer, now: Date, pin?: DefinitionPin) {
    return this.tools.authorizeBinding(catalogue, binding, by, now, pin);
  }
  authorizeBindings(bindings: readonly { catalogue: string; binding: ToolBinding }[], by: Authorizer, now: Date) {
    return this.tools.authorizeBindings(bindings, by, now);
  }
  bindingsAdopted(mark?: Date) {
    return this.tools.bindingsAdopted(mark);
  }
  unauthorizedTools(catalogueId: string, catalogue: Catalogue) {
    return this.tools.unauthorizedTools(catalogueId, catalogue);
  }
  recordListed(server: string, tools: readonly ListedTool[], now: Date) {
    return this.tools.recordListed(server, tools, now);
  }
  seenDefinitions() {
    return this.tools.seenDefinitions();
  }
  seenDefinition(server: string, tool: string) {
    return this.tools.seenDefinition(server, tool);
  }
  pinnedDigests(catalogue: string) {
    return this.tools.pinnedDigests(catalogue);
  }

  registerNode(options: { version: string; languageRevision: LanguageRevision; heartbeatMs?: number; now?: () => Date }) {
    return this.nodes.registerNode(options);
  }
  listNodes(now?: Date) {
    return this.nodes.listNodes(now);
  }
  readiness(deadlineMs: number) {
    return postgresReadiness(this.pool, this.log.failing, deadlineMs);
  }

  async recordActivation(row: ActivationRow) {
    await recordActivation(this.pool, row);
  }
  async activationsOf(document: string) {
    return activationsOf(this.pool, document);
  }

  async recordRulesetRun(ruleset: string, version: number, verdict: RulesetVerdict, at: Date) {
    await recordRun(this.pool, ruleset, version, verdict, at);
  }
  async rulesetRunsSince(ruleset: string, since: Date) {
    await this.log.flush();
    return runsSince(this.pool, ruleset, since);
  }

  /** Writes what the decision log has queued and stops the heartbeats; the pool stays open (it is the caller's). */
  onRecord(listener: RecordListener) {
    return this.record.writer.onRecord(listener);
  }
  get recordWriter() {
    return this.record.writer;
  }
  async chain(kind: string, at: string, ref: string | null, body: ChainEntry['body']) {
    await this.record.inChainedTransaction(async (_client, append) => {
      append(kind, at, ref, body);
    });
  }
  async checkpointRecord(now?: Date) {
    await this.log.flush();
    return this.record.checkpoint(now);
  }

  async close() {
    this.nodes.close();
    await this.log.close();
    await this.record.close();
  }
}
