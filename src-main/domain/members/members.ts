import { and, count, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { PageQuery } from '../../../src-shared/schemas/common';
import type { Member, MemberInput, MemberUpdate } from '../../../src-shared/schemas/member';
import { grants, roleScopes, type Role } from '../../../src-shared/scopes';
import { apiTokens, orgMembers, users } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { storePassword } from '../auth/passwordChange';
import { hashPassword } from '../auth/passwords';
import { scopesIn, type Principal } from '../auth/principal';
import { assertWithinLimit } from '../orgs/plans';
import { paginate } from '../pagination';

/**
 * Who asks for a change of the team: the scopes they hold in the organization, and their user id
 * (null for the CLI, which whoever holds the machine and its data folder runs with every right).
 */
export interface MemberActor {
  scopes: readonly string[];
  userId: string | null;
}

export function memberActor(principal: Principal, orgId: string): MemberActor {
  return { scopes: scopesIn(principal, orgId) ?? [], userId: principal.kind === 'operator' ? null : principal.user.id };
}

const memberColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: orgMembers.role,
  createdAt: orgMembers.createdAt,
  // A rename shows in every organization of the user, so it counts as a change of the member too.
  updatedAt: sql<string>`max(${orgMembers.updatedAt}, ${users.updatedAt})`,
};

function selectMembers(db: ReadDb) {
  return db.select(memberColumns).from(orgMembers).innerJoin(users, eq(users.id, orgMembers.userId));
}

function toMember(row: { id: string; name: string; email: string; role: string; createdAt: string; updatedAt: string }): Member {
  return { ...row, role: row.role as Role };
}

/** The member, or 404 MEMBER_NOT_FOUND (also for a user of another organization: never reveal it exists). */
function findMember(db: ReadDb, orgId: string, userId: string): Member {
  const row = selectMembers(db)
    .where(and(eq(orgMembers.orgId, orgId), eq(orgMembers.userId, userId)))
    .get();
  if (!row) throw new ApiError('MEMBER_NOT_FOUND', `User ${userId} is not a member of this organization`);
  return toMember(row);
}

/** A role may be given, changed or taken away only by someone who holds every scope it has. */
function assertMayHandle(actor: MemberActor, role: Role, what: string): void {
  const beyond = roleScopes[role].filter((scope) => !grants(actor.scopes, scope));
  if (beyond.length) {
    throw new ApiError('FORBIDDEN', `${what} needs the scopes of that role, which you do not hold: ${beyond.join(', ')}`);
  }
}

/** An organization always keeps an owner; the only way to make one is `shipdesk init` or the setup screen. */
function assertNotLastOwner(tx: WriteTx, orgId: string, member: Member, change: string): void {
  if (member.role !== 'owner') return;
  const others = tx
    .select({ n: count() })
    .from(orgMembers)
    .where(and(eq(orgMembers.orgId, orgId), eq(orgMembers.role, 'owner'), ne(orgMembers.userId, member.id)))
    .get();
  if (!others?.n) {
    throw new ApiError('CONFLICT', `${member.email} is the only owner of this organization and cannot be ${change}; an organization always keeps an owner`);
  }
}

export function listMembers(app: AppContext, orgId: string, query: PageQuery) {
  const total = app.db.select({ n: count() }).from(orgMembers).where(eq(orgMembers.orgId, orgId)).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    selectMembers(app.db)
      .where(eq(orgMembers.orgId, orgId))
      .orderBy(desc(orgMembers.createdAt), desc(orgMembers.userId))
      .limit(limit)
      .offset(offset)
      .all()
      .map(toMember),
  );
}

export function getMember(app: AppContext, orgId: string, userId: string): Member {
  return findMember(app.db, orgId, userId);
}

function userByEmail(db: ReadDb, email: string) {
  return db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
}

/**
 * Adds a user to the organization with a role. A new email makes a new user (name and password
 * required); an existing user of this installation joins with their own name and password.
 */
export async function addMember(app: AppContext, actor: MemberActor, orgId: string, input: MemberInput): Promise<Member> {
  assertMayHandle(actor, input.role, `Giving the role ${input.role}`);
  const email = input.email.trim().toLowerCase();
  // Hashing takes a while and cannot run inside the transaction; whether it is needed is checked
  // again inside, where the answer is final.
  let passwordHash: string | null = null;
  if (!userByEmail(app.db, email)) {
    const missing = [
      ...(input.name === undefined ? [{ path: 'body.name', message: 'Required for a new user (no user has this email yet)' }] : []),
      ...(input.password === undefined ? [{ path: 'body.password', message: 'Required for a new user (no user has this email yet)' }] : []),
    ];
    if (missing.length) {
      throw new ApiError('VALIDATION_FAILED', `Invalid ${missing[0]?.path}: ${missing[0]?.message}`, { details: missing });
    }
    passwordHash = await hashPassword(input.password as string);
  }
  const now = app.now().toISOString();
  return inWriteTransaction(app.db, (tx) => {
    let userId = userByEmail(tx, email)?.id;
    if (userId) {
      const already = tx
        .select({ role: orgMembers.role })
        .from(orgMembers)
        .where(and(eq(orgMembers.orgId, orgId), eq(orgMembers.userId, userId)))
        .get();
      if (already) throw new ApiError('CONFLICT', `${email} is already a member of this organization (role ${already.role})`);
      if (input.password !== undefined) {
        throw new ApiError(
          'CONFLICT',
          `A user with email ${email} already exists on this installation and keeps their own password; add them without a password`,
        );
      }
    }
    assertWithinLimit(tx, orgId, 'teamMembers', now);
    if (!userId) {
      // Another request made the user between the check above and this transaction: it has no password of ours.
      if (!passwordHash) throw new ApiError('CONFLICT', `A user with email ${email} was just created by another request; try again`);
      userId = newId('user');
      tx.insert(users)
        .values({ id: userId, name: input.name as string, email, passwordHash, createdAt: now, updatedAt: now })
        .run();
    }
    tx.insert(orgMembers).values({ orgId, userId, role: input.role, createdAt: now, updatedAt: now }).run();
    return findMember(tx, orgId, userId);
  });
}

/** Changes the role in this organization, the user's name, and/or (for someone who forgot it) their password. */
export async function updateMember(app: AppContext, actor: MemberActor, orgId: string, userId: string, input: MemberUpdate): Promise<Member> {
  // Hashing takes a while and cannot run inside the transaction: a refused reset is refused before
  // it, and checked again inside, where the answer is final.
  let passwordHash: string | undefined;
  if (input.password !== undefined) {
    assertMaySetPassword(app.db, actor, orgId, findMember(app.db, orgId, userId));
    passwordHash = await hashPassword(input.password);
  }
  return inWriteTransaction(app.db, (tx) => {
    const member = findMember(tx, orgId, userId);
    const now = app.now().toISOString();
    if (input.role !== undefined && input.role !== member.role) {
      if (actor.userId === userId) {
        throw new ApiError('FORBIDDEN', 'You cannot change your own role; another owner or admin can');
      }
      assertMayHandle(actor, member.role, `Changing the role of a member who is ${member.role}`);
      assertMayHandle(actor, input.role, `Giving the role ${input.role}`);
      assertNotLastOwner(tx, orgId, member, 'given another role');
      tx.update(orgMembers)
        .set({ role: input.role, updatedAt: now })
        .where(and(eq(orgMembers.orgId, orgId), eq(orgMembers.userId, userId)))
        .run();
    }
    if (input.name !== undefined && input.name !== member.name) {
      if (actor.userId !== userId) {
        assertMayHandle(actor, member.role, `Renaming a member who is ${member.role}`);
        assertOnlyHere(tx, orgId, member, 'their name');
      }
      tx.update(users).set({ name: input.name, updatedAt: now }).where(eq(users.id, userId)).run();
    }
    if (passwordHash !== undefined) {
      assertMaySetPassword(tx, actor, orgId, member);
      storePassword(tx, userId, passwordHash, app.now());
    }
    return findMember(tx, orgId, userId);
  });
}

/**
 * A name or a password belongs to the person and counts in every organization they are in: an
 * admin here must not rename them elsewhere, or take over their login to another organization.
 */
function assertOnlyHere(db: ReadDb, orgId: string, member: Member, what: string): void {
  const elsewhere = db
    .select({ n: count() })
    .from(orgMembers)
    .where(and(eq(orgMembers.userId, member.id), ne(orgMembers.orgId, orgId)))
    .get();
  if (elsewhere?.n) {
    throw new ApiError('CONFLICT', `${member.name} is also a member of another organization; only they can change ${what}`);
  }
}

/**
 * Someone else's password, for a member who forgot theirs: with the rights over their role, and only
 * while this is their one organization. One's own goes through POST /auth/password, which asks for
 * the current password, so a station left signed in cannot be used to lock its user out.
 */
function assertMaySetPassword(db: ReadDb, actor: MemberActor, orgId: string, member: Member): void {
  if (actor.userId === member.id) {
    throw new ApiError('FORBIDDEN', 'Change your own password with POST /auth/password, which asks for your current password');
  }
  assertMayHandle(actor, member.role, `Setting the password of a member who is ${member.role}`);
  assertOnlyHere(db, orgId, member, 'their password');
}

/**
 * Takes the user out of the organization: their logins lose it at once, and the API tokens they
 * made for it are revoked. The user stays (other organizations, old records name them).
 */
export function removeMember(app: AppContext, actor: MemberActor, orgId: string, userId: string): { message: string } {
  return inWriteTransaction(app.db, (tx) => {
    const member = findMember(tx, orgId, userId);
    assertMayHandle(actor, member.role, `Removing a member who is ${member.role}`);
    assertNotLastOwner(tx, orgId, member, 'removed');
    tx.delete(orgMembers)
      .where(and(eq(orgMembers.orgId, orgId), eq(orgMembers.userId, userId)))
      .run();
    const revoked = tx
      .update(apiTokens)
      .set({ revokedAt: app.now().toISOString() })
      .where(and(eq(apiTokens.orgId, orgId), eq(apiTokens.createdBy, userId), isNull(apiTokens.revokedAt)))
      .run().changes;
    const tokens = revoked ? `; ${revoked} API token${revoked === 1 ? '' : 's'} they made revoked` : '';
    return { message: `${member.email} removed from the organization${tokens}` };
  });
}
