/**
 * Where an address of the site lives in the export folder. Directory URLs: a path ending in "/",
 * or an HTML answer without an .html name (e.g. the widget), is a folder with an index.html, so
 * any static host serves `/acme/incidents/42/` from `acme/incidents/42/index.html`. Everything
 * else (feeds, JSON, badges, the stylesheet) keeps its own name, which gives its content type.
 */

/** A decoded path segment that is safe as a file or folder name; null for anything else. */
function safeSegment(encoded: string): string | null {
  let segment: string;
  try {
    segment = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  if (segment === '' || segment === '.' || segment === '..' || segment.length > 200) return null;
  // Separators and control characters never become part of a name.
  return /[/\\\u0000-\u001f\u007f]/.test(segment) ? null : segment;
}

/**
 * The folder-relative file (POSIX separators) for a request path such as `/acme/incidents/42/`,
 * or null when the path cannot be a file (dot segments, encoded slashes, control characters).
 */
export function exportFilePath(urlPath: string, contentType: string | undefined): string | null {
  if (!urlPath.startsWith('/') || urlPath.includes('?') || urlPath.includes('#')) return null;
  const directory = urlPath.endsWith('/');
  const raw = urlPath.split('/').slice(1);
  if (directory) raw.pop();
  const segments: string[] = [];
  for (const part of raw) {
    const segment = safeSegment(part);
    if (segment === null) return null;
    segments.push(segment);
  }
  const last = segments.at(-1);
  const isHtml = /^text\/html\b/i.test(contentType ?? '');
  if (directory || last === undefined || (isHtml && !last.endsWith('.html'))) return [...segments, 'index.html'].join('/');
  return segments.join('/');
}
