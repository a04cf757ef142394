import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isOneClickBody, multipartField } from '../../../src/modules/unsubscribe/one-click-body';

/** A form as fetch() (undici) serialises it: the body and its content type with the boundary. */
async function multipart(fields: [string, string][]): Promise<{ type: string; raw: Buffer }> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  const req = new Request('http://x.test/', { method: 'POST', body: form });
  return { type: req.headers.get('content-type') ?? '', raw: Buffer.from(await req.arrayBuffer()) };
}

describe('the RFC 8058 one-click body', () => {
  it('takes the urlencoded pair', () => {
    const form = 'application/x-www-form-urlencoded';
    assert.ok(isOneClickBody(form, Buffer.from('List-Unsubscribe=One-Click')));
    assert.ok(isOneClickBody(form, Buffer.from('List-Unsubscribe=One-Click&x=1')));
    assert.ok(!isOneClickBody(form, Buffer.from('List-Unsubscribe=No')));
    assert.ok(!isOneClickBody(form, Buffer.from('x=One-Click&List-Unsubscribe=')));
    assert.ok(!isOneClickBody(form, Buffer.from('')));
  });

  it('takes the field of a multipart/form-data body, with the boundary as sent', async () => {
    const ok = await multipart([['List-Unsubscribe', 'One-Click']]);
    assert.ok(isOneClickBody(ok.type, ok.raw), ok.raw.toString());
    const among = await multipart([
      ['other', 'x'],
      ['List-Unsubscribe', 'One-Click'],
    ]);
    assert.ok(isOneClickBody(among.type, among.raw));
    // A browser's boundary has capitals; a quoted one and transport padding are allowed too.
    const raw = Buffer.from(
      '--AaB03x \r\nContent-Disposition: form-data; name=List-Unsubscribe\r\n\r\nOne-Click\r\n--AaB03x--\r\n',
    );
    assert.ok(isOneClickBody('multipart/form-data; boundary="AaB03x"', raw));
    assert.ok(!isOneClickBody('multipart/form-data; boundary=aab03x', raw), 'the boundary is case-sensitive');
  });

  it('refuses the words anywhere but in that field', async () => {
    // Before: any multipart body holding `name="List-Unsubscribe"` and `One-Click` somewhere.
    const elsewhere = await multipart([
      ['List-Unsubscribe', 'No'],
      ['comment', 'One-Click'],
    ]);
    assert.ok(!isOneClickBody(elsewhere.type, elsewhere.raw));
    const named = await multipart([['note', 'name="List-Unsubscribe" One-Click']]);
    assert.ok(!isOneClickBody(named.type, named.raw));
    const padded = await multipart([['List-Unsubscribe', 'One-Click please']]);
    assert.ok(!isOneClickBody(padded.type, padded.raw));
    const ok = await multipart([['List-Unsubscribe', 'One-Click']]);
    assert.ok(!isOneClickBody('multipart/form-data', ok.raw), 'no boundary, no form');
    assert.equal(multipartField('no delimiter here', 'multipart/form-data; boundary=b', 'x'), undefined);
  });
});
