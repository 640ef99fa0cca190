/**
 * Build-time minifier of the inline script: `import source from './x.js?minified'` is the file's
 * text minified by esbuild (Vite's own), so the source keeps its comments while the page carries
 * only code. A Vite plugin, used by Astro's build, `astro dev` and the component tests alike.
 */
import { readFile } from 'node:fs/promises';
import { transform } from 'esbuild';
import type { Plugin } from 'vite';

const QUERY = '?minified';

/** The script as pages inline it: minified, no comments, no trailing newline. */
export async function minifyInlineScript(source: string): Promise<string> {
  // No syntax target: the script is minified, never rewritten for other browsers.
  const { code } = await transform(source, { loader: 'js', minify: true, legalComments: 'none', charset: 'utf8' });
  return code.trimEnd();
}

export function minifiedInlineScripts(): Plugin {
  return {
    name: 'porchlight:minified-inline-script',
    enforce: 'pre',
    async load(id) {
      if (!id.endsWith(QUERY)) return null;
      const file = id.slice(0, -QUERY.length);
      this.addWatchFile(file);
      return `export default ${JSON.stringify(await minifyInlineScript(await readFile(file, 'utf8')))};`;
    },
  };
}
