// Prints what each language's catalog misses or gets wrong against English; exit 1 if anything.
import { allCatalogProblems } from '../src/site/i18n/check.ts';

const problems = allCatalogProblems();
for (const problem of problems) console.error(problem);
if (problems.length === 0) console.log('Every catalog matches English.');
process.exitCode = problems.length === 0 ? 0 : 1;
