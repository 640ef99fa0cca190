import { describe, expect, it } from 'vitest';
import { inlineScriptBytes } from '../../bench/lib/inline-script.ts';

describe('inlineScriptBytes', () => {
  it('counts the UTF-8 bytes inside inline scripts only', () => {
    const html = '<head><script src="/a.js"></script><script>let é=1</script></head><body><SCRIPT type="module">x()</SCRIPT><p>script</p></body>';
    expect(inlineScriptBytes(html)).toBe(Buffer.byteLength('let é=1') + 3);
    expect(inlineScriptBytes('<p>none</p>')).toBe(0);
  });
});
