import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { assignableRoles, type AssignableRole, type Member } from '../../../../src-shared/schemas/member';
import { grants, roleScopes, type Role } from '../../../../src-shared/scopes';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/forms';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { formatDateTime } from '../../lib/format';
import { SetMemberPasswordDialog } from '../auth/PasswordDialogs';
import { useOrgId, useSession } from '../../lib/session';
import {
  ConfirmDialog,
  EditorForm,
  PageHeader,
  ReadOnlyNote,
  RowActions,
  SETTINGS_PAGE_SIZE,
  SettingsTable,
  useCanWrite,
  useConfirmTarget,
  useEditor,
  useRole,
} from './shared';

interface MemberDraft {
  email: string;
  name: string;
  /** `owner` only when editing the owner, whose role is shown but not changed. */
  role: Role;
  password: string;
}

/** What each role may do, in a packing station's words (decisions §3). */
const roleNames: Record<Role, string> = {
  owner: 'Owner: everything',
  admin: 'Admin: everything',
  packer: 'Packer: shipments, orders, printers',
  viewer: 'Viewer: reads only',
};

const roleLabel = (role: Role) => role.charAt(0).toUpperCase() + role.slice(1);

export function TeamMembersScreen() {
  const orgId = useOrgId();
  const canWrite = useCanWrite('org_members');
  const myUserId = useSession((state) => state.login?.user.id);
  const [page, setPage] = useState(1);
  const list = useOperation('members.list', { params: { orgId }, query: { page, limit: SETTINGS_PAGE_SIZE } });
  const editor = useEditor<MemberDraft>();
  const remove = useConfirmTarget<Member>();
  const [settingPassword, setSettingPassword] = useState<Member | null>(null);
  const [passwordSet, setPasswordSet] = useState<string | null>(null);
  const editing = list.data?.data.find((member) => member.id === editor.key);

  // The organization's only owner cannot be removed (the server refuses it): no button to offer it.
  const members = list.data?.data ?? [];
  const everyoneShown = (list.data?.total ?? 0) <= members.length;
  const soleOwner = (member: Member) => member.role === 'owner' && everyoneShown && members.filter((other) => other.role === 'owner').length === 1;

  const edit = (member: Member) => canWrite && editor.start(member.id, () => ({ email: member.email, name: member.name, role: member.role, password: '' }));

  const columns: ColumnDef<Member>[] = [
    { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
    { id: 'email', header: 'Email', cell: ({ row }) => row.original.email },
    { id: 'role', header: 'Role', cell: ({ row }) => roleLabel(row.original.role) },
    { id: 'added', header: 'Added', cell: ({ row }) => formatDateTime(row.original.createdAt) },
  ];
  if (canWrite) {
    columns.push({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => (
        <RowActions>
          <button type="button" onClick={() => edit(row.original)} aria-label={`Edit ${row.original.name}`}>
            Edit
          </button>
          {/* One's own password is changed under one's name, where the current one is asked for. */}
          {row.original.id !== myUserId && (
            <button type="button" onClick={() => setSettingPassword(row.original)} aria-label={`Set a new password for ${row.original.name}`}>
              Set password…
            </button>
          )}
          {!soleOwner(row.original) && (
            <button type="button" className="danger" onClick={() => remove.ask(row.original)} aria-label={`Remove ${row.original.name}`}>
              Remove
            </button>
          )}
        </RowActions>
      ),
    });
  }

  const save = async (draft: MemberDraft) => {
    if (editor.key === 'new') {
      // Left empty, name and password are not sent: someone with a Shipdesk login joins with their own.
      const name = draft.name.trim();
      await client.call('members.create', {
        params: { orgId },
        body: {
          email: draft.email.trim(),
          role: draft.role as AssignableRole,
          ...(name ? { name } : {}),
          ...(draft.password ? { password: draft.password } : {}),
        },
      });
    } else {
      // An owner's role, and one's own, are not changed here (the server refuses both).
      const keepRole = editing?.role === 'owner' || editor.key === myUserId;
      const saved = await client.call('members.update', {
        params: { orgId, userId: editor.key ?? '' },
        body: { name: draft.name.trim(), ...(keepRole ? {} : { role: draft.role as AssignableRole }) },
      });
      // The sidebar shows one's own name from the sign-in answer; keep it in step, as for the organization's.
      if (saved.id === myUserId)
        useSession.setState((state) => (state.login ? { login: { ...state.login, user: { ...state.login.user, name: saved.name } } } : {}));
    }
    editor.finish();
    list.reload();
  };

  return (
    <div className="settings-screen">
      <PageHeader title="Team members">
        {canWrite && (
          <button type="button" className="primary" onClick={() => editor.start('new', () => ({ email: '', name: '', role: 'packer', password: '' }))}>
            Add member
          </button>
        )}
      </PageHeader>
      <p className="lead">The people who log in to this organization, each with a role that says what they may do.</p>
      {!canWrite && <ReadOnlyNote what="team members" />}
      {passwordSet && (
        <p role="status" className="call-result ok">
          {passwordSet}
        </p>
      )}
      <SettingsTable
        label="Team members"
        columns={columns}
        list={list}
        page={page}
        onPageChange={setPage}
        onOpen={canWrite ? edit : undefined}
        empty="No team members."
      />

      <Dialog title={editor.key === 'new' ? 'Add a team member' : `Edit ${editing?.name ?? 'team member'}`} open={editor.open} onClose={editor.close}>
        {editor.draft && (
          <EditorForm
            onSubmit={() => save(editor.draft as MemberDraft)}
            onCancel={editor.close}
            submitLabel={editor.key === 'new' ? 'Add member' : 'Save changes'}
          >
            {(errors) => (
              <MemberFields
                draft={editor.draft as MemberDraft}
                onChange={editor.setDraft}
                errors={errors}
                isNew={editor.key === 'new'}
                fixedRole={
                  editing?.role === 'owner'
                    ? 'The organization’s owner keeps that role.'
                    : editor.key === myUserId
                      ? 'You cannot change your own role.'
                      : undefined
                }
              />
            )}
          </EditorForm>
        )}
      </Dialog>

      <SetMemberPasswordDialog
        member={settingPassword}
        onClose={() => setSettingPassword(null)}
        onSet={(member) => setPasswordSet(`New password set for ${member.name}. Tell it to them; they must sign in again.`)}
      />

      <ConfirmDialog
        open={remove.open}
        title="Remove team member"
        message={
          <p>
            Remove <strong>{remove.target?.name}</strong> ({remove.target?.email}) from this organization? They can no longer log in to it, and the API tokens
            they made for it stop working.
          </p>
        }
        confirmLabel="Remove member"
        onCancel={remove.cancel}
        onConfirm={async () => {
          await client.call('members.delete', { params: { orgId, userId: remove.target?.id ?? '' } });
          remove.cancel();
          list.reload();
        }}
      />
    </div>
  );
}

function MemberFields({
  draft,
  onChange,
  errors,
  isNew,
  fixedRole,
}: {
  draft: MemberDraft;
  onChange: (update: (draft: MemberDraft) => MemberDraft) => void;
  errors: Record<string, string>;
  isNew: boolean;
  fixedRole: string | undefined;
}) {
  const role = useRole();
  const held = role ? roleScopes[role] : [];
  const set = <K extends keyof MemberDraft>(key: K, value: MemberDraft[K]) => onChange((current) => ({ ...current, [key]: value }));
  return (
    <div className="form-grid">
      {isNew && (
        <Field label="Email (required)" error={errors.email}>
          <input type="email" value={draft.email} onChange={(event) => set('email', event.target.value)} autoComplete="off" autoFocus />
        </Field>
      )}
      <Field
        label={isNew ? 'Name' : 'Name (required)'}
        error={errors.name}
        hint={isNew ? 'Needed for someone new to Shipdesk' : 'Shown in every organization they belong to'}
      >
        <input value={draft.name} onChange={(event) => set('name', event.target.value)} maxLength={200} />
      </Field>
      <Field label="Role" error={errors.role} hint={fixedRole ?? 'You can give only a role whose rights you have yourself'}>
        <select value={draft.role} onChange={(event) => set('role', event.target.value as AssignableRole)} disabled={fixedRole !== undefined}>
          {(draft.role === 'owner' ? (['owner'] as const) : assignableRoles).map((option) => (
            <option key={option} value={option} disabled={!roleScopes[option].every((scope) => grants(held, scope))}>
              {roleNames[option]}
            </option>
          ))}
        </select>
      </Field>
      {isNew && (
        <Field
          label="Password"
          error={errors.password}
          hint="At least 8 characters, for someone new to Shipdesk. Leave empty for someone who already has a Shipdesk login: they keep theirs."
        >
          <input type="password" value={draft.password} onChange={(event) => set('password', event.target.value)} autoComplete="new-password" />
        </Field>
      )}
    </div>
  );
}
