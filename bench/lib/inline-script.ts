/** Bytes of a page's inline scripts as sent (the text between `<script>` and `</script>`, without a src). */
export function inlineScriptBytes(html: string): number {
  let bytes = 0;
  for (const match of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi)) bytes += Buffer.byteLength(match[1] ?? '', 'utf8');
  return bytes;
}
