import { cliActor } from '../domain/actor.ts';
import { STUDENT_STATUSES, type StudentStatus } from '../domain/clients.ts';
import type { z } from 'zod';
import { toFieldErrors } from '../api/contracts/field-errors.ts';
import { createUserRequest, presentAdminUser, setPasswordRequest } from '../api/contracts/users.ts';
import { AppError } from '../errors.ts';
import type { Services } from '../services/index.ts';
import type { User } from '../services/people/users.ts';
import type { CliCommand } from './command.ts';
import { FORMAT_OPTION, printJson, printRecords, recordFormat } from './output.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { readPassword } from './read-password.ts';
import { UsageError } from './usage-error.ts';

async function requireUserByAccount(services: Services, account: string): Promise<User> {
  const user = await services.users.findByAccount(account);
  if (!user) throw new AppError('not_found', `No user has the account "${account}". List them with: sesame user list`);
  return user;
}

function requirePasswordStdin(flag: boolean | undefined, usage: string): void {
  if (flag !== true) throw new UsageError('missing --password-stdin (the password is read from standard input, never from the command line)', usage);
}


/** The command line judges a person's fields with the same contracts as both APIs: the services trust their callers to. */
function checkFields(schema: z.ZodType, input: Record<string, unknown>): void {
  const result = schema.safeParse(input);
  if (!result.success) throw new AppError('invalid_request', 'Some user fields are invalid.', { fieldErrors: toFieldErrors(result.error.issues, input).fieldErrors });
}

function studentStatusOption(value: string | undefined, usage: string): StudentStatus | undefined {
  if (value !== undefined && !(STUDENT_STATUSES as readonly string[]).includes(value)) {
    throw new UsageError(`--student-status must be one of ${STUDENT_STATUSES.join(', ')} (got "${value}")`, usage);
  }
  return value as StudentStatus | undefined;
}

const summary = (user: User) => ({ subjectId: user.subjectId, account: user.account, status: user.status });

const userAdd: CliCommand = {
  words: ['user', 'add'],
  usage:
    'sesame user add --account NAME --display-name TEXT [--email ADDR] [--email-verified] [--student-status active|not_student|unknown] [--admin] --password-stdin',
  summary: 'create a user; prints {"subjectId", "account"} as JSON',
  details: [
    'The password is the first line of standard input (at a terminal: a prompt without echo).',
    'Accounts are unique regardless of letter case.',
  ],
  async run(args, env) {
    const { values } = parseCommandArgs(this, args, {
      options: {
        account: { type: 'string' },
        'display-name': { type: 'string' },
        email: { type: 'string' },
        'email-verified': { type: 'boolean' },
        'student-status': { type: 'string' },
        admin: { type: 'boolean' },
        'password-stdin': { type: 'boolean' },
      },
      required: ['account', 'display-name'],
    });
    requirePasswordStdin(values['password-stdin'], this.usage);
    const studentStatus = studentStatusOption(values['student-status'], this.usage);
    const password = await readPassword(env.io);
    const input = {
      account: values.account!,
      displayName: values['display-name']!,
      email: values.email,
      emailVerified: values['email-verified'] ?? false,
      studentStatus,
      isAdmin: values.admin ?? false,
      password,
    };
    checkFields(createUserRequest, input);
    const { services } = await env.open();
    const user = await services.users.createUser(cliActor, input);
    printJson(env.io, { subjectId: user.subjectId, account: user.account });
  },
};

const userInvite: CliCommand = {
  words: ['user', 'invite'],
  usage: 'sesame user invite --account NAME --display-name TEXT --email ADDR [--student-status active|not_student|unknown] [--admin]',
  summary: 'create a user without a password and mail them a link to choose one; prints {"subjectId", "account", "invitationExpiresAt"} as JSON',
  details: [
    'The link works once, for 72 hours; nobody else sees it. Needs SMTP_URL (the running server sends the mail).',
    'Following the link also verifies the address.',
  ],
  async run(args, env) {
    const { values } = parseCommandArgs(this, args, {
      options: {
        account: { type: 'string' },
        'display-name': { type: 'string' },
        email: { type: 'string' },
        'student-status': { type: 'string' },
        admin: { type: 'boolean' },
      },
      required: ['account', 'display-name', 'email'],
    });
    const studentStatus = studentStatusOption(values['student-status'], this.usage);
    const input = {
      account: values.account!,
      displayName: values['display-name']!,
      email: values.email!,
      studentStatus,
      isAdmin: values.admin ?? false,
    };
    checkFields(createUserRequest, { ...input, invite: true });
    const { services } = await env.open();
    const { user, invitation } = await services.users.inviteUser(cliActor, input);
    printJson(env.io, { subjectId: user.subjectId, account: user.account, invitationExpiresAt: new Date(invitation.expiresAt).toISOString() });
  },
};

const userPasswd: CliCommand = {
  words: ['user', 'passwd'],
  usage: 'sesame user passwd --account NAME --password-stdin',
  summary: "set a user's password (ends their console and Agent API sessions)",
  async run(args, env) {
    const { values } = parseCommandArgs(this, args, { options: { account: { type: 'string' }, 'password-stdin': { type: 'boolean' } }, required: ['account'] });
    requirePasswordStdin(values['password-stdin'], this.usage);
    const password = await readPassword(env.io, 'New password: ');
    checkFields(setPasswordRequest, { password });
    const { services } = await env.open();
    const user = await requireUserByAccount(services, values.account!);
    await services.users.setPassword(cliActor, user.subjectId, password);
    printJson(env.io, { subjectId: user.subjectId, account: user.account, passwordChanged: true });
  },
};

function statusCommand(word: 'disable' | 'enable', status: User['status'], summaryText: string): CliCommand {
  return {
    words: ['user', word],
    usage: `sesame user ${word} --account NAME`,
    summary: summaryText,
    async run(args, env) {
      const { values } = parseCommandArgs(this, args, { options: { account: { type: 'string' } }, required: ['account'] });
      const { services } = await env.open();
      const user = await requireUserByAccount(services, values.account!);
      printJson(env.io, summary(await services.users.updateUser(cliActor, user.subjectId, { status })));
    },
  };
}

const userList: CliCommand = {
  words: ['user', 'list'],
  usage: 'sesame user list [--format json|table]',
  summary: 'list every user (one JSON object per line, or a table); never password hashes',
  async run(args, env) {
    const { values } = parseCommandArgs(this, args, { options: FORMAT_OPTION });
    const format = recordFormat(values.format, this.usage);
    const { services } = await env.open();
    const users = await services.users.listUsers(cliActor);
    const groups = await services.groups.groupNamesOfPeople(cliActor, users.map((user) => user.subjectId));
    printRecords(
      env.io,
      users.map((user) => presentAdminUser(user, groups.get(user.subjectId) ?? [])),
      format,
    );
  },
};

export const userCommands: CliCommand[] = [
  userAdd,
  userInvite,
  userPasswd,
  statusCommand('disable', 'disabled', 'disable a user: they can no longer sign in, and their sessions end'),
  statusCommand('enable', 'active', 'enable a disabled user again'),
  userList,
];
