import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A server secret generated once into DATA_DIR/secrets/<fileName> (directory 0700, file 0600) and
 * reused at every start, for the embedded mode where no secret is configured. Two processes
 * starting at once agree on one secret (the file is created exclusively; the loser reads it).
 */
export function loadOrCreateSecretFile(dataDir: string, fileName: string): string {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, fileName);
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return fs.readFileSync(file, 'utf8').trim();
  }
}
