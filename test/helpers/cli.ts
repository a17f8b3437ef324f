// The `scan` command in-process (server/cli-scan.ts), its output captured through injected writers.
import { runScanCommand } from '../../server/cli-scan.js';

export async function scanCli(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runScanCommand(argv, env, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}
