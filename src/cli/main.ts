/** Entry of the `porchlight` command (started by porchlight.mjs). */
import { runCli } from './run.ts';

const code = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  now: () => new Date(),
});
process.exitCode = code;
