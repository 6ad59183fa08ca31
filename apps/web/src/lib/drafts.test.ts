// The draft store over a real Storage's contract (an in-memory one with a quota, as localStorage has):
// drafts per document and base, newest first, dropped when old, unreadable, saved or too large.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clearDrafts, DRAFT_PREFIX, draftKey, MAX_DRAFT_AGE_MS, MAX_DRAFT_CHARS, readDrafts, writeDraft } from './drafts.ts';

/** Web Storage in memory, throwing as browsers do once `quota` characters (keys and values) are held. */
class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  constructor(private quota = Number.POSITIVE_INFINITY) {}
  get length() {
    return this.items.size;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    const used = [...this.items].reduce((n, [k, v]) => n + (k === key ? 0 : k.length + v.length), 0);
    if (used + key.length + value.length > this.quota) throw new DOMException('quota', 'QuotaExceededError');
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  clear() {
    this.items.clear();
  }
}

const ID = 'policies/refunds.policy.json';
const T0 = Date.parse('2026-12-01T10:00:00Z');

describe('drafts', () => {
  it('keeps a draft per document and base and reads it back', () => {
    const storage = new MemoryStorage();
    expect(writeDraft(storage, ID, 3, 'text on 3', T0)).toBe('kept');
    expect(storage.getItem(draftKey(ID, 3))).not.toBeNull();
    expect(readDrafts(storage, ID, T0)).toEqual([{ id: ID, base: 3, text: 'text on 3', savedAt: '2026-12-01T10:00:00.000Z' }]);
    expect(readDrafts(storage, 'policies/other.policy.json', T0)).toEqual([]);
  });

  it('answers the drafts of one document newest first, a first version keyed as new', () => {
    const storage = new MemoryStorage();
    writeDraft(storage, ID, 3, 'older', T0);
    writeDraft(storage, ID, null, 'newest', T0 + 2000);
    writeDraft(storage, ID, 4, 'middle', T0 + 1000);
    expect(draftKey(ID, null)).toBe(`${DRAFT_PREFIX}policies%2Frefunds.policy.json@new`);
    expect(readDrafts(storage, ID, T0 + 3000).map((d) => d.text)).toEqual(['newest', 'middle', 'older']);
  });

  it('replaces the draft on the same base rather than adding one', () => {
    const storage = new MemoryStorage();
    writeDraft(storage, ID, 3, 'first', T0);
    writeDraft(storage, ID, 3, 'second', T0 + 1);
    expect(readDrafts(storage, ID, T0 + 2).map((d) => d.text)).toEqual(['second']);
  });

  it('never confuses two ids when one begins with the other', () => {
    const storage = new MemoryStorage();
    writeDraft(storage, 'sheets/a.rules.yaml', 1, 'a', T0);
    writeDraft(storage, 'sheets/a.rules.yaml@1', 1, 'a@1', T0);
    expect(readDrafts(storage, 'sheets/a.rules.yaml', T0).map((d) => d.text)).toEqual(['a']);
    clearDrafts(storage, 'sheets/a.rules.yaml');
    expect(readDrafts(storage, 'sheets/a.rules.yaml@1', T0).map((d) => d.text)).toEqual(['a@1']);
  });

  it('drops every draft of a document on clear (a save succeeded), and no other', () => {
    const storage = new MemoryStorage();
    writeDraft(storage, ID, 3, 'a', T0);
    writeDraft(storage, ID, 4, 'b', T0);
    writeDraft(storage, 'catalogue.yaml', 2, 'c', T0);
    clearDrafts(storage, ID);
    expect(readDrafts(storage, ID, T0)).toEqual([]);
    expect(readDrafts(storage, 'catalogue.yaml', T0)).toHaveLength(1);
  });

  it('drops drafts older than 30 days when they are read', () => {
    const storage = new MemoryStorage();
    writeDraft(storage, ID, 3, 'old', T0);
    expect(readDrafts(storage, ID, T0 + MAX_DRAFT_AGE_MS)).toHaveLength(1);
    expect(readDrafts(storage, ID, T0 + MAX_DRAFT_AGE_MS + 1)).toEqual([]);
    expect(storage.length).toBe(0);
  });

  it('removes, never offers, a stored value that does not read as a draft of the document', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (raw) => {
          const storage = new MemoryStorage();
          storage.setItem(draftKey(ID, 3), raw);
          const drafts = readDrafts(storage, ID, T0);
          // Only a value naming this id, base 3, a text and a time reads back; anything else is gone.
          for (const d of drafts) expect(d).toMatchObject({ id: ID, base: 3 });
          if (drafts.length === 0) expect(storage.length).toBe(0);
        },
      ),
    );
    const storage = new MemoryStorage();
    storage.setItem(draftKey(ID, 3), JSON.stringify({ id: ID, base: 4, text: 'moved', savedAt: new Date(T0).toISOString() }));
    storage.setItem(draftKey(ID, 5), JSON.stringify({ id: 'other', base: 5, text: 'x', savedAt: new Date(T0).toISOString() }));
    storage.setItem(draftKey(ID, 6), JSON.stringify({ id: ID, base: 6, text: 'x', savedAt: 'yesterday' }));
    expect(readDrafts(storage, ID, T0)).toEqual([]);
    expect(storage.length).toBe(0);
  });

  it('refuses a text over the size limit and keeps the previous draft', () => {
    const storage = new MemoryStorage();
    writeDraft(storage, ID, 3, 'small', T0);
    expect(writeDraft(storage, ID, 3, 'x'.repeat(MAX_DRAFT_CHARS + 1), T0)).toBe('too_large');
    expect(writeDraft(storage, ID, 3, 'x'.repeat(MAX_DRAFT_CHARS), T0)).toBe('kept');
  });

  it("makes room by dropping other documents' oldest drafts, and says so when there is none", () => {
    const storage = new MemoryStorage(700);
    storage.setItem('tollgate.member-key', 'k'.repeat(100));
    writeDraft(storage, 'a.yaml', 1, 'a'.repeat(150), T0);
    writeDraft(storage, 'b.yaml', 1, 'b'.repeat(150), T0 + 1);
    expect(writeDraft(storage, ID, 3, 'c'.repeat(150), T0 + 2)).toBe('kept');
    expect(readDrafts(storage, 'a.yaml', T0 + 3)).toEqual([]);
    expect(readDrafts(storage, 'b.yaml', T0 + 3)).toHaveLength(1);
    // The member key is not a draft and is never dropped to make room.
    expect(writeDraft(storage, ID, 4, 'd'.repeat(450), T0 + 4)).toBe('no_room');
    expect(storage.getItem('tollgate.member-key')).not.toBeNull();
  });
});
