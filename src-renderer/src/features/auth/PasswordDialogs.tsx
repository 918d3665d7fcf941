import { useState } from 'react';
import type { Member } from '../../../../src-shared/schemas/member';
import { newPassword } from '../../../../src-shared/schemas/system';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/forms';
import { client } from '../../lib/api';
import { useOrgId, useSession } from '../../lib/session';
import { EditorForm, invalid } from '../settings/shared';

/** The server's rule (newPassword in src-shared), said before the round trip. */
function checkNewPassword(password: string, repeated: string, path: string): void {
  const checked = newPassword().safeParse(password);
  if (!checked.success) throw invalid(path, checked.error.issues[0]?.message ?? 'Not a usable password');
  if (password !== repeated) throw invalid('repeatPassword', 'The two new passwords differ');
}

/** A new password typed twice, so a typo does not lock anyone out. */
function NewPasswordFields({
  password,
  repeated,
  onChange,
  errors,
  hint,
}: {
  password: string;
  repeated: string;
  onChange: (password: string, repeated: string) => void;
  errors: { password: string | undefined; repeated: string | undefined };
  hint: string;
}) {
  return (
    <>
      <Field label="New password" error={errors.password} hint={hint}>
        <input type="password" value={password} onChange={(event) => onChange(event.target.value, repeated)} autoComplete="new-password" />
      </Field>
      <Field label="New password again" error={errors.repeated}>
        <input type="password" value={repeated} onChange={(event) => onChange(password, event.target.value)} autoComplete="new-password" />
      </Field>
    </>
  );
}

/**
 * "Password…" under the user's name: changes their own password. The server answers with a new
 * login, because the one the window had ends with the change; the organization chosen stays.
 */
export function ChangeOwnPasswordDialog({ open, onClose, onChanged }: { open: boolean; onClose: () => void; onChanged: () => void }) {
  const [draft, setDraft] = useState({ currentPassword: '', newPassword: '', repeatPassword: '' });
  const close = () => {
    setDraft({ currentPassword: '', newPassword: '', repeatPassword: '' });
    onClose();
  };
  const save = async () => {
    checkNewPassword(draft.newPassword, draft.repeatPassword, 'newPassword');
    const login = await client.call('auth.changePassword', { body: { currentPassword: draft.currentPassword, newPassword: draft.newPassword } });
    useSession.getState().renewed(login);
    close();
    onChanged();
  };
  return (
    <Dialog title="Change your password" open={open} onClose={close}>
      {open && (
        <EditorForm onSubmit={save} onCancel={close} submitLabel="Change password">
          {(errors) => (
            <div className="form-grid">
              <Field label="Current password" error={errors.currentPassword}>
                <input
                  type="password"
                  value={draft.currentPassword}
                  onChange={(event) => setDraft({ ...draft, currentPassword: event.target.value })}
                  autoComplete="current-password"
                />
              </Field>
              <NewPasswordFields
                password={draft.newPassword}
                repeated={draft.repeatPassword}
                onChange={(newPassword, repeatPassword) => setDraft({ ...draft, newPassword, repeatPassword })}
                errors={{ password: errors.newPassword, repeated: errors.repeatPassword }}
                hint="At least 8 characters. You stay signed in here; other windows and stations signed in as you must sign in again."
              />
            </div>
          )}
        </EditorForm>
      )}
    </Dialog>
  );
}

/** "Set password…" on Team members: a new password for someone who forgot theirs. */
export function SetMemberPasswordDialog({ member, onClose, onSet }: { member: Member | null; onClose: () => void; onSet: (member: Member) => void }) {
  const orgId = useOrgId();
  const [draft, setDraft] = useState({ password: '', repeatPassword: '' });
  const close = () => {
    setDraft({ password: '', repeatPassword: '' });
    onClose();
  };
  const save = async () => {
    if (!member) return;
    checkNewPassword(draft.password, draft.repeatPassword, 'password');
    const updated = await client.call('members.update', { params: { orgId, userId: member.id }, body: { password: draft.password } });
    close();
    onSet(updated);
  };
  return (
    <Dialog title={`Set a new password for ${member?.name ?? 'the member'}`} open={member !== null} onClose={close}>
      {member && (
        <EditorForm onSubmit={save} onCancel={close} submitLabel="Set password">
          {(errors) => (
            <div className="form-grid">
              <p>
                For someone who forgot theirs. Wherever {member.name} is signed in now, they must sign in again with the new password; tell it to them yourself.
                Their API tokens keep working.
              </p>
              <NewPasswordFields
                password={draft.password}
                repeated={draft.repeatPassword}
                onChange={(password, repeatPassword) => setDraft({ password, repeatPassword })}
                errors={{ password: errors.password, repeated: errors.repeatPassword }}
                hint="At least 8 characters"
              />
            </div>
          )}
        </EditorForm>
      )}
    </Dialog>
  );
}
