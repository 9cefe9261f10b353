import { Flags } from '@oclif/core';
import { Svc } from '@svc/sdk';
import { BaseCommand } from '../base-command.js';
import { writeStoredConfig } from '../lib/config-store.js';

export default class Login extends BaseCommand<typeof Login> {
  static override description = 'Store the server address and API key for later commands (file mode 0600; SVC_URL and SVC_API_KEY override it)';
  static override examples = ['<%= config.bin %> login --url http://127.0.0.1:3100 --api-key svc_sk_...'];
  static override flags = {
    url: Flags.string({ description: 'svc server address', required: true }),
    'api-key': Flags.string({ description: 'API key (svc_sk_...)', required: true }),
    project: Flags.string({ description: 'default project id or name' }),
  };

  async run(): Promise<{ url: string; configFile: string; keys: number }> {
    const { url, 'api-key': apiKey, project } = this.flags as { url: string; 'api-key': string; project?: string };
    const svc = new Svc({ baseUrl: url, apiKey, maxRetries: 0 });
    const keys = await svc.keys.list(); // proves the address and the key work before storing them
    const configFile = writeStoredConfig(this.config.configDir, { url, apiKey, ...(project ? { project } : {}) });
    this.out(`Logged in to ${url}; configuration stored in ${configFile}`);
    return { url, configFile, keys: keys.length };
  }
}
