// The server's state behind one interface (docs/deploy.md, "The state stores"): members and keys, approvals,
// the decision log, tool authorizations and pinned definitions, the node registry (published as "gateways"), trials' counts and rule-set
// runs. Two implementations keep it: SQLite beside a data folder (sqlite-state.ts, the embedded default) and
// PostgreSQL shared by several nodes (postgres-state.ts); one contract suite runs against both
// (apps/api/test/state-contract.test.ts). Routes and the gate use only this.
import type { Catalogue, Member, PolicyRevision, RulesetVerdict, ToolBinding } from '@tollgate/engine';
import type { TrialCounter } from '@tollgate/store';
import type { ChainEntry, Checkpoint } from '../record/chain.ts';
import type { RecordReader } from '../record/reader.ts';
import type { RecordListener } from '../record/writer.ts';
import type { ActivationRow } from './activations/model.ts';
import type {
  ApprovalFilter,
  ApprovalRow,
  ClaimOutcome,
  CounterMove,
  DecideOutcome,
  DecisionWrite,
  PendingSummary,
  VoteRow,
} from './approvals/model.ts';
import type { DecisionFilter, DecisionRow, SessionCall } from './decisions/model.ts';
import type { PageKey } from './keyset.ts';
import type { CustodialKeys } from './members/custodial-keys.ts';
import type { IdentityStore } from './members/identity-store.ts';
import type { Grant, KeyAuthentication, MemberRow, Role } from './members/model.ts';
import { type LanguageRevision, laggingNodes, type NodeView, type RegisteredNode } from './nodes/model.ts';
import type { AuthorizationRow, Authorizer, DefinitionPin, ListedTool, SeenDefinition } from './tools/model.ts';
import type { WebhookStore } from './webhooks/model.ts';

/** A page of rows read newest first, whether more follow, and the next page's cursor (keyset.ts). */
export interface Page<T> {
  rows: T[];
  more: boolean;
  next: string | null;
}

/** What a call's decision writes: its row, and for a held call its approval request (written with it). */
export interface DecisionRecord {
  row: DecisionRow;
  approval?: ApprovalRow;
}

/** The session's earlier allowed calls, oldest first, read when called (inside recordDecision's step only). */
export type HistoryRead = () => readonly SessionCall[];

const NO_SESSION_CALLS: readonly SessionCall[] = Object.freeze([]);

/** The history of a call outside any session, or one nothing deciding it counts: none, one list for every such call. */
export const NO_HISTORY: HistoryRead = () => NO_SESSION_CALLS;

/** What a scrape of /metrics reads of the state (observability/metrics.ts); never a call's content. */
export interface StateObservation {
  pendingApprovals: PendingSummary;
  /** Decisions answered or waiting and not yet written (the decision log's queue, decisions/). */
  decisionsQueued: number;
  /** When the oldest of those was decided (ISO), or null when none waits: how far the log's writes lag. */
  oldestQueuedAt: string | null;
  /** The PostgreSQL pool's connections: open, idle, callers waiting for one, errors it reported (absent on SQLite). */
  pool?: { total: number; idle: number; waiting: number; errors: number };
}

/** What a readiness probe checks of the state (readiness.ts; server/health/readiness.ts): each passes or fails. */
export interface StateReadiness {
  /** The database answered a trivial statement within the deadline. */
  database: boolean;
  /** The schema is the one this Tollgate knows (PostgreSQL; SQLite migrates as it opens). */
  migrations: boolean;
  /** The decision log is writing: no write of it is failing. */
  decisionLog: boolean;
}

export interface StateStore {
  readonly kind: 'sqlite' | 'postgres';

  // Members and keys. Cached reads are trusted while nothing changed them, from any process or node.
  /** A key checked at `now`: the principal it acts as, or why it is refused; undefined for no key. */
  authenticateKey(key: string, now: Date): Promise<KeyAuthentication | undefined>;
  /** The current members (a removed member's row stays, for their signatures, but is left out). */
  members(): Promise<readonly MemberRow[]>;
  /**
   * The members as rules judge approvers: the same array while they are unchanged. `requireMemberKeys` (the setting
   * approvals_require_member_keys) counts as signing only members holding an active passkey or device key.
   */
  judgedMembers(requireMemberKeys?: boolean): Promise<readonly Member[]>;
  /** The members as last read (for a synchronous reader: the edit seam's validators); judgedMembers refreshes it. */
  judgedMembersSeen(): readonly Member[];
  /** A member by id or name, a removed one too (removed_at says). */
  findMember(idOrName: string): Promise<MemberRow | undefined>;
  /** The operator's shortcut (the demo's seed, `tollgate keys create`): identity.addMember as the operator, refusals thrown. */
  createMember(name: string, role: Role, now?: Date): Promise<MemberRow>;
  /** The operator's shortcut: identity.issueKey as the operator; answers the key, shown once. */
  createKey(owner: { member: string } | { agent: string }, grants?: Grant[], now?: Date): Promise<string>;
  countMembers(): Promise<number>;
  /** Members and keys as the product manages them: each change judged, written and recorded (members/identity-store.ts). */
  readonly identity: IdentityStore;
  /** The members' custodial signing keys, sealed with the operator's secret (members/custodial-keys.ts). */
  readonly custodial: CustodialKeys;

  // Approvals: every transition one conditional write, so of racing deciders or claimers exactly one wins.
  findApproval(id: string): Promise<ApprovalRow | undefined>;
  listApprovals(filter: ApprovalFilter, now: Date, limit: number, after?: PageKey): Promise<Page<ApprovalRow>>;
  /**
   * Decides a pending request unexpired at `now` with `write`, signed already (server/approvals/decide.ts); a
   * passkey's counter moves with it, or nothing is written (`counter_moved`).
   */
  decideApproval(id: string, write: DecisionWrite, now: Date, counter?: CounterMove): Promise<DecideOutcome>;
  claimApproval(id: string, digest: string, now: Date): Promise<ClaimOutcome>;
  /** The votes on a request that needs a quorum, oldest first (none for one that does not). */
  listVotes(id: string): Promise<VoteRow[]>;

  // The decision log.
  /**
   * Decides and records one call: `decide` gets a reader of the session's earlier allowed calls (read only if it
   * asks: most tools never count them, docs/performance.md) and answers what to write. Atomic against the
   * session's other calls on every node (so `at_most` and spending limits count every call), and a held call's
   * approval request is written before this resolves. `decide` must not wait on anything, and reads the history
   * only while it runs.
   */
  recordDecision(agent: string, session: string | undefined, decide: (history: HistoryRead) => DecisionRecord): Promise<DecisionRecord>;
  /** Writes what is queued (a read after this sees every decision answered so far). */
  flushDecisions(): Promise<void>;
  findDecision(callId: string): Promise<DecisionRow | undefined>;
  listDecisions(filter: DecisionFilter): Promise<Page<DecisionRow>>;
  /** Recorded calls oldest first (a simulation's source). */
  recordedDecisions(filter: DecisionFilter): Promise<DecisionRow[]>;
  sessionHistory(agent: string, session: string): Promise<SessionCall[]>;
  forgetOldArguments(before: Date): Promise<number>;
  countDecisions(): Promise<number>;
  /** Counts for a metrics scrape: pending approvals, the log's queue, the pool. */
  observe(now: Date): Promise<StateObservation>;

  // Tool authorizations and pinned upstream definitions (docs/catalogue.md, docs/mcp.md).
  /** Moves on every authorization from any process or node; read at most once per turn of the event loop. */
  authorizationGeneration(): Promise<number>;
  authorizationsOf(catalogue: string): Promise<Map<string, AuthorizationRow>>;
  authorizeBinding(catalogue: string, binding: ToolBinding, by: Authorizer, now: Date, pin?: DefinitionPin): Promise<AuthorizationRow>;
  /** Authorizes bindings as one write (the demo seed, the first run's adoption). */
  authorizeBindings(bindings: readonly { catalogue: string; binding: ToolBinding }[], by: Authorizer, now: Date): Promise<void>;
  /** Whether the bindings running when authorizations began were adopted; marks them adopted when `mark`. */
  bindingsAdopted(mark?: Date): Promise<boolean>;
  unauthorizedTools(catalogueId: string, catalogue: Catalogue): Promise<string[]>;
  recordListed(server: string, tools: readonly ListedTool[], now: Date): Promise<void>;
  seenDefinitions(): Promise<Map<string, Map<string, SeenDefinition>>>;
  seenDefinition(server: string, tool: string): Promise<SeenDefinition | undefined>;
  pinnedDigests(catalogue: string): Promise<Map<string, string | null>>;

  // The node registry, published as "gateways" (docs/deploy.md, "the language gate").
  registerNode(options: {
    version: string;
    languageRevision: LanguageRevision;
    heartbeatMs?: number;
    now?: () => Date;
  }): Promise<RegisteredNode>;
  listNodes(now?: Date): Promise<NodeView[]>;

  // The record (docs/audit.md): read back for an export or a receipt, after every decision answered is written.
  readonly recordReader: RecordReader;
  /**
   * Calls `listener` with each entry this process chains once it is written (or queued never to be dropped), and each
   * checkpoint it signs; answers how to stop. The audit log's stream (docs/audit.md).
   */
  onRecord(listener: RecordListener): () => void;
  /** This process's writer: its id and public key. */
  readonly recordWriter: { readonly id: string; readonly publicKey: string; readonly startedAt: string };
  /** Chains an entry that states no row of the state (its body is the record): a document's change, say. */
  chain(kind: string, at: string, ref: string | null, body: ChainEntry['body']): Promise<void>;
  /** Signs a checkpoint of this writer's chain now (after every entry queued is written); none when nothing is new. */
  checkpointRecord(now?: Date): Promise<Checkpoint | undefined>;

  /** What a readiness probe checks of the state (readiness.ts), each bounded by `deadlineMs`. */
  readiness(deadlineMs: number): Promise<StateReadiness>;

  /** Webhook subscriptions, their durable outbox and its attempts (webhooks/, docs/webhooks.md). */
  readonly webhooks: WebhookStore;

  // Who made document versions run (activations/model.ts): beside the store's authors, for four eyes.
  recordActivation(row: ActivationRow): Promise<void>;
  /** A document's activations, oldest first. */
  activationsOf(document: string): Promise<ActivationRow[]>;

  // Rule-set runs and trials' counts.
  recordRulesetRun(ruleset: string, version: number, verdict: RulesetVerdict, at: Date): Promise<void>;
  rulesetRunsSince(ruleset: string, since: Date): Promise<number>;
  readonly trialCounter: TrialCounter;

  close(): Promise<void>;
}

/**
 * The live nodes that decide a lower language revision than `revision` (nodes/model.ts's laggingNodes over the
 * registry as it stands): a document of that revision must not run while any is (docs/deploy.md).
 */
export async function laggingNodesOf(state: StateStore, revision: PolicyRevision, now: Date = new Date()): Promise<NodeView[]> {
  if (revision <= 1) return [];
  return laggingNodes(await state.listNodes(now), revision);
}
