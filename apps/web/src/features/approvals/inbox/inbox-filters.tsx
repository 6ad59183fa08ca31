// The inbox's filter bar: a text box ("/" focuses it) and selects by agent, tool, rule and age, offered the
// values of the calls listed (and the one chosen, even when none is listed now). Written to the address's query.
import { type RefObject, useId } from 'react';
import type { Approval } from '../api/types.ts';
import { type InboxAge, type InboxFilter, isFiltered, NO_FILTER } from './inbox-filter.ts';

const AGES: { value: InboxAge; label: string }[] = [
  { value: '', label: 'any age' },
  { value: '1h', label: 'older than 1 h' },
  { value: '1d', label: 'older than 1 day' },
];

/** The distinct values of one member among the calls, sorted, with the chosen one kept. */
function choices(approvals: readonly Approval[], pick: (a: Approval) => string | null, chosen: string): string[] {
  const values = new Set(approvals.map(pick).filter((v): v is string => v !== null));
  if (chosen !== '') values.add(chosen);
  return [...values].sort();
}

/** A labelled select; the label is the select's sibling, so its name is the label alone (not its options too). */
function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (v: string) => void;
}) {
  const id = useId();
  return (
    <div className="field inbox-filter-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Choice({ label, value, values, onChange }: { label: string; value: string; values: string[]; onChange: (v: string) => void }) {
  const options = [{ value: '', label: `any ${label.toLowerCase()}` }, ...values.map((v) => ({ value: v, label: v }))];
  return <Select label={label} value={value} options={options} onChange={onChange} />;
}

export function InboxFilters({
  filter,
  onFilter,
  approvals,
  searchRef,
}: {
  filter: InboxFilter;
  onFilter: (filter: InboxFilter) => void;
  approvals: readonly Approval[];
  searchRef: RefObject<HTMLInputElement | null>;
}) {
  const set = (member: keyof InboxFilter) => (value: string) => onFilter({ ...filter, [member]: value });
  return (
    <search className="inbox-filters" aria-label="Filter the calls">
      <label className="field inbox-filter-field inbox-filter-text">
        <span>Filter</span>
        <input
          ref={searchRef}
          type="search"
          value={filter.q}
          placeholder="agent, tool or rule"
          onChange={(event) => set('q')(event.target.value)}
          aria-keyshortcuts="/"
        />
      </label>
      <Choice label="Agent" value={filter.agent} values={choices(approvals, (a) => a.agent, filter.agent)} onChange={set('agent')} />
      <Choice label="Tool" value={filter.tool} values={choices(approvals, (a) => a.tool, filter.tool)} onChange={set('tool')} />
      <Choice label="Rule" value={filter.rule} values={choices(approvals, (a) => a.rule, filter.rule)} onChange={set('rule')} />
      <Select label="Age" value={filter.age} options={AGES} onChange={set('age')} />
      {isFiltered(filter) && (
        <button type="button" className="button inbox-filter-clear" onClick={() => onFilter(NO_FILTER)}>
          Clear filters
        </button>
      )}
    </search>
  );
}
