/**
 * Renders .astro components to HTML strings with Astro's Container API, plus the few HTML
 * probes the tests share. Needs vitest to run with Astro's Vite config (getViteConfig).
 */
import { experimental_AstroContainer as AstroContainer, type ContainerRenderOptions } from 'astro/container';

type Component = Parameters<AstroContainer['renderToString']>[0];

let container: AstroContainer | undefined;

export async function render(component: Component, props: Record<string, unknown> = {}, options: ContainerRenderOptions = {}): Promise<string> {
  container ??= await AstroContainer.create();
  return container.renderToString(component, { ...options, props });
}

/** Every start tag of the document, e.g. `<li class="x" data-level="up">`. */
export function startTags(html: string): string[] {
  return html.match(/<[a-z][^<>]*>/gi) ?? [];
}

/** Start tags carrying an attribute the Content-Security-Policy would refuse. */
export function cspOffenders(html: string): string[] {
  return startTags(html).filter((tag) => /\sstyle\s*=/i.test(tag) || /\son[a-z]+\s*=/i.test(tag));
}

/** How many times `needle` occurs in `html`. */
export function count(html: string, needle: string | RegExp): number {
  if (typeof needle === 'string') return html.split(needle).length - 1;
  return (html.match(new RegExp(needle.source, needle.flags.includes('g') ? needle.flags : `${needle.flags}g`)) ?? []).length;
}

/** Text with tags removed and whitespace collapsed, for reading order checks. */
export function text(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
}
