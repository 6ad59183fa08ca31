// The pins of one set version: each rule with its name, description and owner (docs/rulesets.md),
// its kind, the version pinned, the version in use, the rule's status and a "newer version N" badge, with
// Update to latest where the member may re-pin.
import { newestVersion, type Ruleset, type RulesetPin } from '../api/types.ts';
import { inUseLabel, newerBadge, pinnedLabel } from '../pin-labels.ts';
import { StatusBadge } from './status-badge.tsx';
import { UpdateToLatestButton } from './update-to-latest-button.tsx';

interface PinsTableProps {
  set: Ruleset;
  canRepin: boolean;
  editHref: (document: string) => string;
  onSaved: (draft: Ruleset) => void;
}

function PinRow({ set, pin, canRepin, editHref, onSaved }: Omit<PinsTableProps, 'set'> & { set: Ruleset; pin: RulesetPin }) {
  const badge = newerBadge(pin);
  return (
    <tr>
      <th scope="row" className="pin-rule">
        <a href={editHref(pin.rule_id)}>{pin.rule_id}</a>
        {badge !== null && <span className="badge badge-newer">{badge}</span>}
        <span className="pin-name">{pin.name}</span>
        {pin.description !== null && <span className="muted pin-description">{pin.description}</span>}
      </th>
      <td data-label="Owner">{pin.owner ?? '—'}</td>
      <td data-label="Kind">{pin.kind}</td>
      <td data-label="Pinned">{pinnedLabel(pin)}</td>
      <td data-label="In use">{inUseLabel(pin)}</td>
      <td data-label="Status">
        <StatusBadge status={pin.status} />
      </td>
      {canRepin && <td data-label="Update">{pin.newer && <UpdateToLatestButton id={set.id} ruleId={pin.rule_id} onSaved={onSaved} />}</td>}
    </tr>
  );
}

export function PinsTable(props: PinsTableProps) {
  const { set, onSaved } = props;
  // The Update column shows only when there is something the member may update, on the newest version:
  // the next version is built on the newest one (a draft may re-pin already), never on an older one shown.
  const newest = newestVersion(set);
  const canRepin = props.canRepin && set.newer_pins > 0 && set.version_id === newest;
  return (
    <section className="panel" aria-labelledby="pins-heading">
      <div className="panel-head">
        <h3 id="pins-heading" className="panel-title">
          Pins of version {set.version_id}
        </h3>
        {canRepin && <UpdateToLatestButton id={set.id} onSaved={onSaved} />}
      </div>
      {props.canRepin && set.newer_pins > 0 && set.version_id !== newest && (
        <p className="muted">Update to latest builds on the newest version, {newest}: open it to re-pin.</p>
      )}
      <div className="table-scroll">
        <table className="pins-table" aria-labelledby="pins-heading">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Owner</th>
              <th scope="col">Kind</th>
              <th scope="col">Pinned</th>
              <th scope="col">In use</th>
              <th scope="col">Status</th>
              {canRepin && <th scope="col">Update</th>}
            </tr>
          </thead>
          <tbody>
            {set.pins.map((pin) => (
              <PinRow key={pin.rule_id} {...props} canRepin={canRepin} pin={pin} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
