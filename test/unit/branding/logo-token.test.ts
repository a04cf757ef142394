import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  appendFooter,
  logoUrl,
  resolveLogoToken,
  resolveLogoTokenText,
} from '../../../src/modules/branding/logo-token';

const owner = 'usr_01jabcdefghjkmnpqrstvwxyz0';
const withLogo = { baseUrl: 'https://mail.example.com/', ownerId: owner, hasLogo: true };
const noLogo = { ...withLogo, hasLogo: false };
const URL = `https://mail.example.com/public/branding/${owner}/logo`;

describe('{{logo_url}} in a footer', () => {
  it('resolves to BASE_URL/public/branding/<owner_id>/logo when a logo exists', () => {
    assert.equal(logoUrl('https://mail.example.com', owner), URL);
    assert.equal(
      resolveLogoToken('<p><img src="{{logo_url}}" alt="Acme" width="120"></p>', withLogo),
      `<p><img src="${URL}" alt="Acme" width="120"></p>`,
    );
  });

  it('accepts spaces inside the braces and replaces every occurrence', () => {
    assert.equal(
      resolveLogoToken('<a href="{{ logo_url }}"><img src="{{logo_url}}"></a>', withLogo),
      `<a href="${URL}"><img src="${URL}"></a>`,
    );
  });

  it('HTML-escapes the URL', () => {
    const ctx = { ...withLogo, baseUrl: 'https://mail.example.com/a&b' };
    assert.match(
      resolveLogoToken('<img src="{{logo_url}}">', ctx),
      /src="https:\/\/mail\.example\.com\/a&amp;b\//,
    );
  });

  it('without a logo removes the whole image tag, alt text and all', () => {
    assert.equal(
      resolveLogoToken('<p>Acme<img src="{{logo_url}}" alt="Acme logo"> Ltd</p>', noLogo),
      '<p>Acme Ltd</p>',
    );
    assert.equal(resolveLogoToken('<IMG SRC={{logo_url}} />x', noLogo), 'x');
    // A `>` inside a quoted attribute does not end the tag.
    assert.equal(resolveLogoToken('<img alt="a > b" src="{{logo_url}}">|', noLogo), '|');
    assert.equal(
      resolveLogoToken(
        '<picture><source srcset="{{logo_url}} 2x"><img src="{{logo_url}}"></picture>',
        noLogo,
      ),
      '<picture></picture>',
    );
  });

  it('without a logo leaves other images alone and empties the token elsewhere', () => {
    assert.equal(
      resolveLogoToken('<img src="cid:x"><a href="{{logo_url}}">site</a>', noLogo),
      '<img src="cid:x"><a href="">site</a>',
    );
  });

  it('leaves a footer without the token unchanged', () => {
    const html = '<p>{{other}} <img src="https://x.test/a.png"></p>';
    assert.equal(resolveLogoToken(html, noLogo), html);
    assert.equal(resolveLogoToken(html, withLogo), html);
  });

  it('in a text footer: the bare URL, or nothing', () => {
    assert.equal(resolveLogoTokenText('Logo: {{logo_url}}', withLogo), `Logo: ${URL}`);
    assert.equal(resolveLogoTokenText('Logo: {{logo_url}}', noLogo), 'Logo: ');
  });
});

describe('appendFooter', () => {
  it('puts the HTML footer before </body>, or at the end', () => {
    assert.deepEqual(
      appendFooter({ html: '<html><body><p>Hi</p></BODY></html>', text: null }, { html: '<hr>F', text: 'F' }),
      {
        html: '<html><body><p>Hi</p><hr>F</BODY></html>',
        text: null,
      },
    );
    assert.deepEqual(
      appendFooter({ html: '<p>Hi</p>', text: 'Hi\n' }, { html: '<hr>F', text: '-- \nAcme' }),
      {
        html: '<p>Hi</p><hr>F',
        text: 'Hi\n\n-- \nAcme',
      },
    );
  });

  it('changes nothing without a footer', () => {
    const body = { html: '<p>Hi</p>', text: 'Hi' };
    assert.deepEqual(appendFooter(body, { html: null, text: null }), body);
  });
});
