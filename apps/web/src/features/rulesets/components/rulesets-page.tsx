// The console's Rule sets page (docs/rulesets.md): the list, or one set when the route names it.
import { permissionsOf } from '../ruleset-permissions.ts';
import { RulesetDetail } from './ruleset-detail.tsx';
import { RulesetList } from './ruleset-list.tsx';

interface RulesetsPageProps {
  selected: string | null;
  role: string | null;
  rulesetHref: (id: string | null) => string;
  historyHref: (id: string) => string;
  editHref: (document: string) => string;
}

export function RulesetsPage({ selected, role, rulesetHref, historyHref, editHref }: RulesetsPageProps) {
  if (selected === null) return <RulesetList rulesetHref={rulesetHref} />;
  return (
    <RulesetDetail
      // A fresh page per set, so the version picked for one set is not carried to another.
      key={selected}
      id={selected}
      permissions={permissionsOf(role)}
      listHref={rulesetHref(null)}
      historyHref={historyHref(selected)}
      editHref={editHref}
      rulesetHref={rulesetHref}
    />
  );
}
