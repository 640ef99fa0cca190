/**
 * Writes a file so that a reader sees the old bytes or the new ones, never half of them: a hidden,
 * unique temporary file beside the target (rename(2) is atomic only within one file system), then
 * a rename over it. The temporary file is removed when anything fails.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeFileAtomically(target: string, body: Buffer | string, options: { mode?: number } = {}): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, body, options.mode === undefined ? {} : { mode: options.mode });
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
