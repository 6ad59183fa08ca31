// The Members & keys page (docs/console.md, "Members and keys"): the members and their roles, the keys, and for
// owners and admins the forms that change them and the record of changes; and the signed-in member's own
// signing keys (passkeys, device keys, the custodial key); for owners and admins, the webhook subscriptions. A key just made or rotated is held
// here, in this component's state alone, until its panel is closed.
import { useState } from 'react';
import { PageHeading } from '../../../components/page-heading.tsx';
import { WebhooksSection } from '../../webhooks/components/webhooks-section.tsx';
import type { RevealedKey } from '../key-forms.ts';
import { ChangesSection } from './changes-section.tsx';
import { KeysSection } from './keys-section.tsx';
import { MembersSection } from './members-section.tsx';
import { RevealedKeyPanel } from './revealed-key-panel.tsx';
import { SigningKeysSection } from './signing-keys-section.tsx';

/** `me` is the signed-in member's id, null until GET /v1/me answers. */
export function MembersPage({ canManage, me }: { canManage: boolean; me: string | null }) {
  const [revealed, setRevealed] = useState<RevealedKey | null>(null);
  const [said, setSaid] = useState('');
  return (
    <section className="panel stack members-page" aria-labelledby="members-heading">
      <PageHeading id="members-heading" title="Members & keys" />
      <p>
        {canManage
          ? 'Add members, change their roles, and make, rotate and revoke keys. Every change is recorded below.'
          : 'The members, and your own keys: you can rotate or revoke them. An owner or admin manages the rest.'}
      </p>
      {/* What the last action did, read out by screen readers. */}
      <p className="members-said" role="status">
        {said}
      </p>
      {revealed !== null && <RevealedKeyPanel revealed={revealed} onClose={() => setRevealed(null)} />}
      <MembersSection canManage={canManage} onSaid={setSaid} />
      <KeysSection canManage={canManage} onSaid={setSaid} onSecret={setRevealed} />
      <SigningKeysSection me={me} onSaid={setSaid} />
      {canManage && <WebhooksSection onSaid={setSaid} />}
      {canManage && <ChangesSection />}
    </section>
  );
}
