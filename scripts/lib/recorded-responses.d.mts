// Types of recorded-responses.mjs for the TypeScript suites that import it.
export declare const ROOT: string;
export declare const RECORDINGS_DIR: string;
export interface RecordingManifest {
  state: 'running' | 'finished';
  startedAt: string;
  finishedAt?: string;
  fingerprint: string;
  files: string[];
  exitCode?: number | null;
}
export declare function e2eTestFiles(): string[];
export declare function buildFingerprint(): string;
export declare function beginRecording(dir: string, files: string[]): RecordingManifest;
export declare function finishRecording(dir: string, manifest: RecordingManifest, exitCode: number | null): void;
export declare function usableRecordings(dir: string): { usable: true; manifest: RecordingManifest; files: string[] } | { usable: false; reason: string };
