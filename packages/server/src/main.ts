import { Command, InvalidArgumentError, Option } from 'commander';
import { Role } from '@svc/contract';
import { ConfigError, loadConfig } from './config.js';
import { bootstrapInstance, createOrganization, onlyOrganizationId, organizationExists } from './organizations/bootstrap.js';
import { createLogger } from './logging/logger.js';
import { relationalServices } from './runtime.js';
import { startServer } from './serve.js';
import { newId } from './shared/ids.js';
import { DataDirLock, DataDirLockedError } from './storage/data-dir-lock.js';
import { AnalyticsStore } from './storage/duckdb/connection.js';
import { RelationalStore } from './storage/sqlite/connection.js';

const program = new Command('svc-server').description('The svc API server and its host commands').showHelpAfterError();

const dataDirOption = () => new Option('--data-dir <dir>', 'data directory (env SVC_DATA_DIR)').default(undefined, './data');
const port = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return n;
};

/** Prints a host command's result: JSON with --json, else `key: value` lines. */
function print(result: Record<string, unknown>, json: boolean): void {
  if (json) process.stdout.write(JSON.stringify(result) + '\n');
  else for (const [k, v] of Object.entries(result)) process.stdout.write(`${k}: ${v}\n`);
}

function fail(message: string): never {
  process.stderr.write(`svc-server: ${message}\n`);
  process.exit(1);
}

/** Opens the relational store alone: host commands work beside a running server. */
function openRelational(dataDir: string | undefined) {
  const config = loadConfig(process.env, { dataDir });
  const store = RelationalStore.open(config.dataDir);
  const log = createLogger('silent');
  return { config, store, services: relationalServices(store, log) };
}

/** The organization a host command acts in: the one named (which must exist), else the instance's only one. */
function organizationOf(store: RelationalStore, named: string | undefined): string {
  if (named) return organizationExists(store, named) ? named : fail(`no organization ${named}`);
  return onlyOrganizationId(store) ?? fail('the instance is not bootstrapped (run "svc-server bootstrap") or has several organizations (pass --organization)');
}

program
  .command('start')
  .description('Serve the API (PORT, default 3100) with its data in the data directory')
  .option('--port <port>', 'port to listen on (env PORT); 0 picks a free one', port)
  .option('--host <host>', 'address to bind (env SVC_HOST, default 127.0.0.1)')
  .addOption(dataDirOption())
  .action(async (opts: { port?: number; host?: string; dataDir?: string }) => {
    await startServer(loadConfig(process.env, opts));
  });

program
  .command('bootstrap')
  .description('Create the first organization, admin user, default project and admin key; prints the key once')
  .addOption(dataDirOption())
  .option('--admin-email <email>', 'the admin user\'s email (env SVC_ADMIN_EMAIL)')
  .option('--json', 'print {organization_id, project_id, user_id, api_key}')
  .action(async (opts: { dataDir?: string; adminEmail?: string; json?: boolean }) => {
    const { config, store, services } = openRelational(opts.dataDir);
    const result = await bootstrapInstance(store, services.keys, opts.adminEmail ?? config.bootstrapAdminEmail);
    store.close();
    if (!result) fail(`the data directory ${config.dataDir} is already bootstrapped; create more keys with "svc-server keys create"`);
    print({ ...result }, Boolean(opts.json));
  });

program
  .command('migrate')
  .description('Apply pending migrations to both stores (refused while a server uses the directory)')
  .addOption(dataDirOption())
  .action(async (opts: { dataDir?: string }) => {
    const config = loadConfig(process.env, opts);
    const lock = DataDirLock.acquire(config.dataDir);
    RelationalStore.open(config.dataDir).close();
    await (await AnalyticsStore.open(config.dataDir)).close();
    lock.release();
    process.stdout.write(`migrated ${config.dataDir}\n`);
  });

const organization = program.command('organization').description('Organizations of the instance (on the server host)');
organization
  .command('create')
  .description('Create another organization with its admin user, the project "default" and an admin key; prints the key once')
  .requiredOption('--name <name>', 'the organization\'s name')
  .requiredOption('--admin-email <email>', 'email of its admin user (unique across the instance)')
  .addOption(dataDirOption())
  .option('--json', 'print {organization_id, project_id, user_id, api_key}')
  .action(async (opts: { name: string; adminEmail: string; dataDir?: string; json?: boolean }) => {
    const name = opts.name.trim();
    if (!name) fail('--name must not be empty');
    const { store, services } = openRelational(opts.dataDir);
    const result = await createOrganization(store, services.keys, { name, adminEmail: opts.adminEmail, keyName: 'organization admin' });
    store.close();
    if (result === 'email_taken') fail(`a user with the email ${opts.adminEmail} already exists`);
    if (typeof result === 'string') fail(result);
    print({ ...result }, Boolean(opts.json));
  });

const user = program.command('user').description('Users of the organization (on the server host)');
user
  .command('create')
  .description('Create a user')
  .requiredOption('--email <email>', 'email address')
  .addOption(new Option('--role <role>', 'role').choices(Role.options).default('member'))
  .option('--organization <id>', 'the organization (needed once the instance has several)')
  .addOption(dataDirOption())
  .option('--json', 'print {user_id, email, role}')
  .action(async (opts: { email: string; role: Role; organization?: string; dataDir?: string; json?: boolean }) => {
    const { store, services } = openRelational(opts.dataDir);
    const organizationId = organizationOf(store, opts.organization);
    const created = await services.users.create({
      id: newId('usr_'),
      organizationId,
      email: opts.email.trim().toLowerCase(),
      role: opts.role,
      createdAt: new Date().toISOString(),
    });
    store.close();
    if (!created) fail(`a user with the email ${opts.email} already exists`);
    print({ user_id: created.id, email: created.email, role: created.role }, Boolean(opts.json));
  });

const session = program.command('session').description('Browser sessions (until a sign-in flow exists)');
session
  .command('create')
  .description('Mint a session for a user; prints the svc.session_token cookie value once')
  .requiredOption('--email <email>', 'the user\'s email')
  .addOption(dataDirOption())
  .option('--json', 'print {user_id, token, expires_at}')
  .action(async (opts: { email: string; dataDir?: string; json?: boolean }) => {
    const { config, store, services } = openRelational(opts.dataDir);
    const found = (await services.users.findByEmail(opts.email)) ?? fail(`no user with the email ${opts.email}`);
    const minted = await services.sessions.create(found.id, config.sessionTtlSeconds);
    store.close();
    print({ user_id: found.id, token: minted.token, expires_at: minted.expiresAt }, Boolean(opts.json));
  });

const keys = program.command('keys').description('API keys (on the server host)');
keys
  .command('create')
  .description('Mint an API key for a user; prints the secret once')
  .requiredOption('--email <email>', 'the user the key acts as')
  .option('--project <project>', 'project id or name for a project-scoped key')
  .option('--name <name>', 'label')
  .addOption(dataDirOption())
  .option('--json', 'print the key record with its secret')
  .action(async (opts: { email: string; project?: string; name?: string; dataDir?: string; json?: boolean }) => {
    const { store, services } = openRelational(opts.dataDir);
    const owner = (await services.users.findByEmail(opts.email)) ?? fail(`no user with the email ${opts.email}`);
    let projectId: string | null = null;
    if (opts.project) {
      const project = (await services.projects.findByRef(owner.organizationId, opts.project)) ?? fail(`no project "${opts.project}" in the user's organization`);
      projectId = project.id;
    }
    const key = await services.keys.mint({ organizationId: owner.organizationId, projectId, name: opts.name ?? null, createdByUserId: owner.id });
    store.close();
    print(key, Boolean(opts.json));
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) fail(err.message);
  process.stderr.write(`svc-server: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
