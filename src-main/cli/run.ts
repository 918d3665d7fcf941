/**
 * Scriptable chores (`shipdesk <command>`): run by src-main/cli.ts (`npm run cli`, `node
 * out/main/cli.js`) and by the installed desktop app when it is started with a command. Output is
 * JSON on stdout only; errors are the API's error body on stderr with a non-zero exit code.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ApiError, validationError } from '../../src-shared/errors';
import { csvNotUtf8Message, decodeUtf8 } from '../../src-shared/utf8Text';
import { email, requiredText } from '../../src-shared/schemas/common';
import { addOnTypes, plans } from '../../src-shared/schemas/org';
import { newPassword } from '../../src-shared/schemas/system';
import type { OperationId } from '../../src-shared/operations';
import { type AppContext } from '../app/kernel/context';
import { createAppContext } from '../app/runtime/createApp';
import { defaultDataDir } from '../app/runtime/config';
import { backupTo } from '../app/runtime/dailyBackups';
import { restoreBackup } from '../app/runtime/restoreBackup';
import { CLI_HELP_WORDS, cliCommandList, cliCommandOf, type CliCommand } from './commands';
import { durable } from '../db/tx';
import { createOrgWithOwner, findOrgRow, setPlan } from '../domain/orgs/orgs';
import { createApiToken } from '../domain/apiTokens/apiTokens';
import { findUser, userRoles } from '../domain/auth/authenticate';
import { setPasswordByEmail } from '../domain/auth/passwordChange';
import { execute, operatorDoor, type RawInput } from '../app/dispatcher/execute';
import { toApiError } from '../app/dispatcher/errors';
import { JsonText } from '../app/kernel/jsonText';
import { setAddOn } from '../domain/orgs/usage';

const usage = `Usage: shipdesk <command> [options]

Commands:
  init --org <name> --email <email> --password <password> [--name <your name>] [--token]
      Create the first organization and its owner. With --token, also an API token with write:all.
      Prints {"orgId","userId"[,"token"]}.
  org set-plan <orgId> <starter|pro|unlimited>
      Change an organization's plan. Prints the organization.
  org set-add-on <orgId> extra_carrier <quantity> [--unit-price <minor units>]
      Give an organization an add-on: extra_carrier raises its carrier limit by <quantity>; 0 takes
      it away. The price (default 0) is listed in its usage. Prints {"orgId","addOns"}.
  member add <orgId> --email <email> --role <admin|packer|viewer> [--name <name>] [--password <password>]
      Add a team member. A new email needs --name and --password; an existing user of this
      installation joins with their own name and password (so --password is refused). Prints the member.
  user set-password --email <email> --password <password>
      Set a user's password, e.g. for an owner who forgot theirs; their logins made before it stop
      working. Prints {"userId","email"}.
  orders import <orgId> <file.csv>
      Import orders from a CSV file, as POST /orders/import does (columns in docs/api.md), with no
      size limit. Prints {"created","skipped","errors":[{"row","message"}]}; rows with errors are
      listed there and the exit code is still 0, as the import itself ran.
  backup <file>
      Write an online backup of the database to <file>.
  restore <file>
      Put a backup (one of backups/, or one written by backup) in place of the database, with
      Shipdesk closed. The backup is checked first; the database it replaces is kept beside it as
      <database>.before-restore-<time>. Prints {"restored","database","previous"}.
  --help
      Show this help.

Environment: SHIPDESK_DATA_DIR (data folder), SHIPDESK_PROFILE (database profile).`;

const initInput = z.strictObject({
  org: requiredText(),
  email: email(),
  password: newPassword(),
  name: requiredText().optional(),
  token: z.boolean().optional(),
});

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError('options', result.error.issues);
  return result.data;
}

async function init(app: AppContext, args: string[]): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: {
      org: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      token: { type: 'boolean' },
    },
    strict: true,
  });
  const input = parse(initInput, values);
  const created = await createOrgWithOwner(app, {
    orgName: input.org,
    email: input.email,
    password: input.password,
    ...(input.name ? { userName: input.name } : {}),
  });
  if (!input.token) return created;
  const user = findUser(app.db, created.userId);
  if (!user) throw new ApiError('INTERNAL_ERROR', 'The new owner could not be read back');
  const owner = { kind: 'user' as const, user, roles: userRoles(app.db, user.id), expiresAt: new Date(8.64e15) };
  const token = createApiToken(app, owner, created.orgId, { name: 'CLI token', scopes: ['write:all'] });
  return { ...created, token: token.token };
}

/**
 * Exactly the positional arguments named, no options: a missing one is a 400 naming it, an extra one
 * or an option (`backup --help` must not write a file called "--help") is refused.
 */
function positionalArgs<const Names extends readonly string[]>(args: string[], names: Names, usageLine: string): Record<Names[number], string> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
  if (positionals.length > names.length) throw new ApiError('BAD_REQUEST', `Unexpected argument "${positionals[names.length]}". Usage: ${usageLine}`);
  const missing = names.filter((_, i) => !positionals[i]);
  if (missing.length) {
    throw new ApiError('VALIDATION_FAILED', `Missing ${missing.map((name) => `<${name}>`).join(', ')}. Usage: ${usageLine}`, {
      details: missing.map((name) => ({ path: `<${name}>`, message: 'Required' })),
    });
  }
  return Object.fromEntries(names.map((name, i) => [name, positionals[i]])) as Record<Names[number], string>;
}

/** `member add <orgId> …`: the machine's operator adds a member, as an owner would through the API. */
async function memberAdd(app: AppContext, args: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1)
    throw new ApiError('BAD_REQUEST', 'Usage: member add <orgId> --email <email> --role <role> [--name <name>] [--password <password>]');
  const orgId = parse(z.string().min(1), positionals[0]);
  findOrgRow(app.db, orgId);
  return operation(app, 'members.create', { params: { orgId }, body: values }, '--');
}

/**
 * One operation of the table, through the dispatcher every door uses, as the machine's operator.
 * `bodyIs` names what the body came from on the command line (`--` for options, `<file.csv>`), so a
 * refusal points at what to fix there, not at the API's `body.…`.
 */
async function operation(app: AppContext, operationId: OperationId, input: RawInput, bodyIs: '--' | '<file.csv>'): Promise<unknown> {
  try {
    const { body } = await execute(app, operationId, input, operatorDoor);
    return body instanceof JsonText ? body.parse() : body;
  } catch (error) {
    // Mapped as every door maps the dispatcher's failures (a full disk is a 500 that says so).
    const apiError = toApiError(error);
    if (!apiError.details) throw apiError;
    const named = (path: string) => (path === 'body' ? bodyIs : path.startsWith('body.') && bodyIs === '--' ? `--${path.slice('body.'.length)}` : path);
    const details = apiError.details.map((detail) => ({ ...detail, path: named(detail.path) }));
    const message = apiError.message.replace(/^Invalid (body[\w.]*)/, (_, path: string) => `Invalid ${named(path)}`);
    throw new ApiError(apiError.code, message, { details });
  }
}

const addOnInput = z.strictObject({
  type: z.enum(addOnTypes),
  quantity: z.coerce.number().int().min(0).max(1000),
  unitPrice: z.coerce.number().int().min(0).max(100_000_000),
});

/** `org set-add-on <orgId> <type> <quantity> [--unit-price n]`: what a reseller sells on top of a plan. */
function orgSetAddOn(app: AppContext, args: string[]) {
  const usageLine = 'org set-add-on <orgId> extra_carrier <quantity> [--unit-price <minor units>]';
  const { values, positionals } = parseArgs({ args, options: { 'unit-price': { type: 'string' } }, allowPositionals: true, strict: true });
  const { orgId, type, quantity } = positionalArgs(positionals, ['orgId', 'type', 'quantity'], usageLine);
  const input = parse(addOnInput, { type, quantity, unitPrice: values['unit-price'] ?? '0' });
  return setAddOn(app, orgId, input.type, input.quantity, input.unitPrice);
}

const setPasswordInput = z.strictObject({ email: email(), password: newPassword() });

/** `user set-password --email … --password …`: the machine's operator lets someone back in. */
async function userSetPassword(app: AppContext, args: string[]): Promise<unknown> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, password: { type: 'string' } }, strict: true });
  const input = parse(setPasswordInput, values);
  return setPasswordByEmail(app, input.email, input.password);
}

/** `orders import <orgId> <file>`: a nightly CSV drop imported by a scheduled task, without a token. */
async function ordersImport(app: AppContext, args: string[]): Promise<unknown> {
  const { orgId, file } = positionalArgs(args, ['orgId', 'file'], 'orders import <orgId> <file.csv>');
  findOrgRow(app.db, orgId);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new ApiError('VALIDATION_FAILED', `The file ${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`, {
      details: [{ path: '<file.csv>', message: 'Cannot be read' }],
    });
  }
  // Not read with replacement: a Windows-1252 "ø" would be imported as "\ufffd" (decisions §1).
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) {
    const message = csvNotUtf8Message(decoded.line);
    throw new ApiError('VALIDATION_FAILED', message, { details: [{ path: '<file.csv>', message }] });
  }
  return operation(app, 'orders.import', { params: { orgId }, body: decoded.text }, '<file.csv>');
}

async function runCommand(app: AppContext, command: Exclude<CliCommand, 'restore'>, args: string[]): Promise<unknown> {
  switch (command) {
    case 'init':
      return init(app, args);
    case 'org set-plan': {
      const { orgId, plan } = positionalArgs(args, ['orgId', 'plan'], 'org set-plan <orgId> <starter|pro|unlimited>');
      return setPlan(app, orgId, parse(z.enum(plans), plan));
    }
    case 'org set-add-on':
      return orgSetAddOn(app, args);
    case 'member add':
      return memberAdd(app, args);
    case 'user set-password':
      return userSetPassword(app, args);
    case 'orders import':
      return ordersImport(app, args);
    case 'backup': {
      const { file } = positionalArgs(args, ['file'], 'backup <file>');
      await backupTo(app, file);
      return { backup: file };
    }
  }
}

async function run(argv: readonly string[]): Promise<number> {
  if (CLI_HELP_WORDS.includes(argv[0] ?? '')) {
    console.log(usage);
    return 0;
  }
  const command = cliCommandOf(argv);
  if (!command) {
    const given = argv.length > 0 ? `Unknown command "${argv.join(' ')}"` : 'No command given';
    throw new ApiError('BAD_REQUEST', `${given}; the commands are ${cliCommandList()} (--help shows them)`);
  }
  const args = argv.slice(command.split(' ').length);
  if (command === 'restore') {
    // Not through an AppContext: the database it would open is the one being replaced.
    const { file } = positionalArgs(args, ['file'], 'restore <file>');
    console.log(JSON.stringify(await restoreBackup(defaultDataDir(), file)));
    return 0;
  }
  const app = createAppContext({ dataDir: defaultDataDir() });
  try {
    const result = await runCommand(app, command, args);
    // What is printed is on disk (group commit, db/groupCommit.ts).
    await durable(app.db);
    console.log(JSON.stringify(result));
    return 0;
  } finally {
    app.close();
  }
}

/** Runs one command line (the words after `shipdesk`) and answers with the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (error) {
    // What is not an API error is a refusal worded for the operator (a mistyped command line, a
    // damaged or locked database, an unreadable backup): its message is the answer.
    const apiError = error instanceof ApiError ? error : new ApiError('BAD_REQUEST', error instanceof Error ? error.message : String(error));
    console.error(JSON.stringify(apiError.toBody()));
    return apiError.status >= 500 ? 2 : 1;
  }
}
