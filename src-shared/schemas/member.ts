import { z } from 'zod';
import { email, timestamp } from './common';
import { newPassword } from './system';
import { roles } from '../scopes';

/**
 * Roles the API can give. `owner` is made only by `shipdesk init` or the setup screen, so no caller
 * can make themselves or anyone else an owner (docs/decisions.md "Team members").
 */
export const assignableRoles = ['admin', 'packer', 'viewer'] as const;
export type AssignableRole = (typeof assignableRoles)[number];

const memberName = () => z.string().min(1).max(200);

/** A user's membership of one organization; `id` is the user's id (`usr_…`). */
export const memberSchema = z.strictObject({
  id: z.string().describe('The user id (usr_…)'),
  name: z.string(),
  email: z.string().describe('Lower case; one user per email on this installation'),
  role: z.enum(roles),
  createdAt: timestamp().describe('When the user was added to this organization'),
  updatedAt: timestamp().describe('The last change of the role here, or of the name'),
});
export type Member = z.infer<typeof memberSchema>;

/**
 * A new email makes a new user, who needs `name` and `password`. An email that already has a user
 * on this installation (a member of another organization) adds that user with their own name and
 * password: a `password` is then refused (409), so nobody believes they set it.
 */
export const memberCreateBody = z.strictObject({
  email: email(),
  role: z.enum(assignableRoles),
  name: memberName().optional().describe('Required for a new user; an existing user keeps their name'),
  password: newPassword().optional().describe('Required for a new user (at least 8 characters); refused for an existing one'),
});
export type MemberInput = z.output<typeof memberCreateBody>;

/**
 * `name` and `password` are the user's, so they count in every organization they belong to: others
 * set them only with the rights over the member's role, and only while this is their one
 * organization (docs/decisions.md "Team members").
 */
export const memberUpdateBody = z.strictObject({
  role: z.enum(assignableRoles).optional(),
  name: memberName().optional(),
  password: newPassword()
    .optional()
    .describe('A new password for someone who forgot theirs; their logins made before it stop working. Your own: POST /auth/password'),
});
export type MemberUpdate = z.output<typeof memberUpdateBody>;
