import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What `svc login` remembers. */
export interface StoredConfig {
  url?: string;
  apiKey?: string;
  project?: string;
}

export const CONFIG_FILE = 'config.json';

/** Reads the stored configuration; an absent or unreadable file is empty. */
export function readStoredConfig(configDir: string): StoredConfig {
  try {
    return JSON.parse(readFileSync(path.join(configDir, CONFIG_FILE), 'utf8')) as StoredConfig;
  } catch {
    return {};
  }
}

/** Writes the configuration readable by its owner only (0600), since it holds a key. */
export function writeStoredConfig(configDir: string, config: StoredConfig): string {
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const file = path.join(configDir, CONFIG_FILE);
  writeFileSync(file, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}
