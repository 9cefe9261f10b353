import { Command, Flags, type Interfaces } from '@oclif/core';
import { Svc, SvcError } from '@svc/sdk';
import { readStoredConfig } from './lib/config-store.js';
import { exitCodeForStatus } from './lib/exit-codes.js';

export type BaseFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>;

/**
 * Every `svc` command: the shared `--url`, `--api-key` and `--project` flags
 * (flag, then environment, then what `svc login` stored), `--json` output,
 * and API errors turned into `code: message` on stderr with a stable exit code.
 */
export abstract class BaseCommand<T extends typeof Command> extends Command {
  static override enableJsonFlag = true;

  static override baseFlags = {
    url: Flags.string({ description: 'svc server address', env: 'SVC_URL', helpGroup: 'GLOBAL' }),
    'api-key': Flags.string({ description: 'API key (svc_sk_...)', env: 'SVC_API_KEY', helpGroup: 'GLOBAL' }),
    project: Flags.string({ description: 'project id or name', env: 'SVC_PROJECT', helpGroup: 'GLOBAL' }),
  };

  protected flags!: BaseFlags<T>;
  private svcClient: Svc | undefined;

  public override async init(): Promise<void> {
    await super.init();
    const { flags } = await this.parse({ flags: this.ctor.flags, baseFlags: (this.ctor as typeof BaseCommand).baseFlags, args: this.ctor.args, strict: this.ctor.strict, enableJsonFlag: this.ctor.enableJsonFlag });
    this.flags = flags as BaseFlags<T>;
  }

  /** The project from `--project`, `SVC_PROJECT` or the stored login, if any. */
  protected get project(): string | undefined {
    return this.flags.project ?? readStoredConfig(this.config.configDir).project;
  }

  /** The API client, configured from flags, environment and the stored login. */
  protected get client(): Svc {
    if (!this.svcClient) {
      const stored = readStoredConfig(this.config.configDir);
      this.svcClient = new Svc({ baseUrl: this.flags.url ?? stored.url, apiKey: this.flags['api-key'] ?? stored.apiKey });
    }
    return this.svcClient;
  }

  /** Writes human output (suppressed under --json, where the return value is printed instead). */
  protected out(text: string): void {
    if (!this.jsonEnabled()) this.log(text);
  }

  /** Progress and warnings: always stderr, never mixed into data. */
  protected note(text: string): void {
    process.stderr.write(`${text}\n`);
  }

  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    // `this.exit(n)` throws an ExitError; under --json oclif would report it as an error with exit 1.
    if (err.name === 'ExitError' && typeof err.oclif?.exit === 'number') {
      process.exitCode = err.oclif.exit;
      return undefined;
    }
    if (err instanceof SvcError) {
      if (this.jsonEnabled()) {
        this.logJson({ error: { code: err.code, message: err.message, status: err.status, details: err.details, requestId: err.requestId } });
      } else {
        process.stderr.write(`Error: ${err.code}: ${err.message}\n`);
      }
      this.exit(exitCodeForStatus(err.status));
    }
    return super.catch(err);
  }
}
