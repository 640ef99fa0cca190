/** A real XML parser that refuses anything not well-formed, warnings included. */
import { DOMParser } from '@xmldom/xmldom';

export function parseXml(text: string, mimeType: 'image/svg+xml' | 'text/xml' = 'text/xml') {
  const parser = new DOMParser({
    onError: (level, message) => {
      throw new Error(`${level}: ${message}`);
    },
  });
  return parser.parseFromString(text, mimeType);
}
