// Unit tests of the Webhooks section's pure helpers: what the form sends, how filters and times read, and the
// split of the signing secret.
import { describe, expect, it } from 'vitest';
import type { NewWebhook } from './api/types.ts';
import { EMPTY_WEBHOOK_FORM, filterWords, newWebhookBody, withoutWebhookSecret } from './webhook-forms.ts';

describe('withoutWebhookSecret', () => {
  it('splits the secret off, leaving the subscription as listed', () => {
    const made = { id: 'w1', url: 'https://hooks.example.com/t', secret: 'whsec_abc' } as unknown as NewWebhook;
    const { secret, info } = withoutWebhookSecret(made);
    expect(secret).toBe('whsec_abc');
    expect(info).not.toHaveProperty('secret');
    expect(JSON.stringify(info)).not.toContain('whsec_abc');
    expect(info).toMatchObject({ id: 'w1', url: 'https://hooks.example.com/t' });
  });
});

describe('newWebhookBody', () => {
  it('sends the trimmed URL, the ticked events in their order, the format and include_arguments', () => {
    const made = newWebhookBody({
      url: '  https://hooks.example.com/t ',
      events: ['approval.claimed', 'approval.pending'],
      format: 'slack',
      includeArguments: true,
    });
    expect(made).toEqual({
      body: {
        url: 'https://hooks.example.com/t',
        events: ['approval.pending', 'approval.claimed'],
        format: 'slack',
        include_arguments: true,
      },
    });
  });

  it('asks for a URL and for at least one event', () => {
    expect(newWebhookBody({ ...EMPTY_WEBHOOK_FORM, url: '   ' })).toEqual({ problem: 'The URL is needed.' });
    expect(newWebhookBody({ ...EMPTY_WEBHOOK_FORM, url: 'https://a.example', events: [] })).toEqual({
      problem: 'Tick at least one event.',
    });
  });

  it('sends the filters typed, each name once, and none for empty fields', () => {
    const made = newWebhookBody({
      ...EMPTY_WEBHOOK_FORM,
      url: 'https://a.example',
      agents: ' support-bot, billing-bot  support-bot ',
      tools: '',
      policies: 'policies/refunds.policy.json',
    });
    expect(made).toEqual({
      body: {
        url: 'https://a.example',
        events: ['approval.pending'],
        format: 'standard',
        include_arguments: false,
        filters: { agents: ['support-bot', 'billing-bot'], policies: ['policies/refunds.policy.json'] },
      },
    });
    expect(newWebhookBody({ ...EMPTY_WEBHOOK_FORM, url: 'https://a.example', agents: ' , ' })).not.toHaveProperty('body.filters');
  });

  it('refuses a filter the server would refuse: over 100 names, or a name over 200 characters', () => {
    const many = Array.from({ length: 101 }, (_, i) => `a${i}`).join(',');
    expect(newWebhookBody({ ...EMPTY_WEBHOOK_FORM, url: 'https://a.example', tools: many })).toEqual({
      problem: 'Name at most 100 tools.',
    });
    expect(newWebhookBody({ ...EMPTY_WEBHOOK_FORM, url: 'https://a.example', agents: 'x'.repeat(201) })).toHaveProperty('problem');
  });

  it('leaves the URL for the server to judge', () => {
    expect(newWebhookBody({ ...EMPTY_WEBHOOK_FORM, url: 'http://127.0.0.1/x' })).toHaveProperty('body');
  });
});

describe('filterWords', () => {
  it('names each list given, and none when there are none', () => {
    expect(filterWords({})).toBe('none');
    expect(filterWords({ agents: ['support-bot'], tools: ['issue_refund', 'close_ticket'] })).toBe(
      'agents: support-bot; tools: issue_refund, close_ticket',
    );
  });
});
