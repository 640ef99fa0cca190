/**
 * The console's call for a preview: one POST to the site thread's internal origin (the address
 * the launcher gets when the site's thread is ready), answered with a complete HTML document for
 * a sandboxed frame, its Content-Security-Policy and the frame width asked for; or why there is
 * none, in the catalog language of the request. Every template but the e-mail: that one the console
 * asks of the subscribers (src/subscribers/mail-preview.ts), whose mails it is.
 */
import { PREVIEW_HEADER, PREVIEW_PATH, previewRequestSchema, type PreviewErrorCode, type PreviewRequestInput } from './preview-request.ts';

export type PreviewResult =
  | { ok: true; html: string; contentSecurityPolicy: string; width: number }
  | { ok: false; status: number; error: PreviewErrorCode; message: string };

export async function requestPreview(siteOrigin: string, input: PreviewRequestInput, options: { signal?: AbortSignal } = {}): Promise<PreviewResult> {
  const body = JSON.stringify(previewRequestSchema.parse(input));
  const response = await fetch(new URL(PREVIEW_PATH, siteOrigin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', [PREVIEW_HEADER]: '1' },
    body,
    ...(options.signal && { signal: options.signal }),
  });
  if (response.ok) {
    return {
      ok: true,
      html: await response.text(),
      contentSecurityPolicy: response.headers.get('content-security-policy') ?? '',
      width: Number(response.headers.get('x-porchlight-preview-width') ?? 1280),
    };
  }
  const text = await response.text();
  let answer: { error?: PreviewErrorCode; message?: string } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    // Not the preview route's answer (an old site, a 404 page): said as such below.
  }
  return { ok: false, status: response.status, error: answer.error ?? 'unavailable', message: answer.message ?? `preview failed (HTTP ${response.status})` };
}
