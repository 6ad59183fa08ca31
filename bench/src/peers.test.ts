// The peers decide like the engine: Cedar (both ways of loading its policies) and Cerbos on the refunds
// stream and on amounts at the edges of what they can state. Decisions only; timing is the bench's.
import { type CompiledTool, compilePolicy, compileTool, type ToolBinding } from '@tollgate/engine/policy';
import { describe, expect, it } from 'vitest';
import { createCedarPeer, toCedarRequest } from './cedar-peer.ts';
import { cerbosBinary, startCerbos } from './cerbos-peer.ts';
import { peerAmount } from './peer-amount.ts';
import { type Call, REFUND_TOOLS, REFUNDS_POLICY, refundsStream } from './streams.ts';

const REFUND = REFUND_TOOLS[2] as ToolBinding;
const PAYOUT = REFUND_TOOLS[3] as ToolBinding;

const compiled = compilePolicy(REFUNDS_POLICY);
if (!compiled.ok) throw new Error('the refunds policy does not compile');
const policy = compiled.policy;
const engine = (c: Call) => policy.decide(compileTool(c.tool) as CompiledTool, c.args).decision;

/** Amounts on and beside the thresholds, beyond four fractional digits and beyond Cedar's range. */
const EDGES: Call[] = [
  '0',
  0,
  '100',
  100,
  '100.0000',
  '100.00001',
  '99.99999',
  '99.9999',
  '100.0001',
  '1000',
  '1000.0000',
  '1000.000000000000000001',
  '999.99999',
  1001,
  '9999999999.99999',
  '10000000000',
  '922337203685477.5808',
  '99999999999999999999.5',
  '1e3',
  '-1',
  12.5,
  null,
].flatMap((amount) => [REFUND, PAYOUT].map((tool) => ({ tool, args: { amount } })));
EDGES.push({ tool: REFUND, args: {} }, { tool: PAYOUT, args: {} });

describe('peerAmount', () => {
  it('states an amount in four fractional digits and says when it cut', () => {
    expect(peerAmount(REFUND, { amount: '50' })).toEqual({ kind: 'amount', decimal: '50.0000', units: 500_000, cut: false });
    expect(peerAmount(REFUND, { amount: 7 })).toEqual({ kind: 'amount', decimal: '7.0000', units: 70_000, cut: false });
    expect(peerAmount(REFUND, { amount: '100.00001' })).toEqual({ kind: 'amount', decimal: '100.0000', units: 1_000_000, cut: true });
    expect(peerAmount(REFUND, { amount: '100.000000' })).toEqual({ kind: 'amount', decimal: '100.0000', units: 1_000_000, cut: false });
    expect(peerAmount(REFUND, { amount: '12345678901234567890.5' })).toMatchObject({ decimal: '9999999999.9999', cut: true });
  });

  it('leaves out a missing amount and refuses one policy@1 cannot read', () => {
    expect(peerAmount(REFUND, {})).toEqual({ kind: 'none' });
    expect(peerAmount(REFUND_TOOLS[0] as ToolBinding, { amount: 'abc' })).toEqual({ kind: 'none' });
    for (const amount of ['1e3', '-5', '012', '', '1.', '.5', '12.3456789012345678901', 12.5, -1, null, true, { v: 1 }]) {
      expect(peerAmount(REFUND, { amount })).toEqual({ kind: 'unreadable' });
    }
  });
});

describe('Cedar decides like the engine', () => {
  const cedar = createCedarPeer();

  it('on amounts at the edges, with policies loaded once and per call', () => {
    for (const call of EDGES) {
      const request = toCedarRequest(call);
      const want = engine(call);
      expect({ call, got: cedar.decideLoaded(request, call.tool.name) }).toEqual({ call, got: want });
      expect({ call, got: cedar.decidePerCall(request, call.tool.name) }).toEqual({ call, got: want });
    }
  });

  it('on the first 5,000 calls of the refunds stream', () => {
    const calls = refundsStream(5_000);
    const differ = calls.filter((c) => cedar.decideLoaded(toCedarRequest(c), c.tool.name) !== engine(c));
    expect(differ.slice(0, 3)).toEqual([]);
  });
});

const binary = cerbosBinary();
describe.skipIf('missing' in binary)('Cerbos decides like the engine', () => {
  it('on amounts at the edges and the first 2,000 calls of the refunds stream', async () => {
    const cerbos = await startCerbos();
    try {
      const calls = [...EDGES, ...refundsStream(2_000)];
      const got: string[] = [];
      for (let i = 0; i < calls.length; i += 25) got.push(...(await cerbos.decide(calls.slice(i, i + 25), i)));
      const differ = calls.flatMap((c, i) => (got[i] === engine(c) ? [] : [{ call: c, cerbos: got[i], engine: engine(c) }]));
      expect(differ.slice(0, 3)).toEqual([]);
    } finally {
      await cerbos.stop();
    }
  });
});
