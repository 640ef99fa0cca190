/** `npm run openapi`: writes docs/openapi.json from the zod contract (a test keeps it current). */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openApiText } from '../http/openapi-route.ts';

const target = path.resolve(import.meta.dirname, '../../../docs/openapi.json');
const text = openApiText();
// Same document, same file: nothing is written when it has not changed.
if ((await readFile(target, 'utf8').catch(() => null)) === text) process.stdout.write(`${path.relative(process.cwd(), target)} is up to date\n`);
else {
  await writeFile(target, text);
  process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
}
