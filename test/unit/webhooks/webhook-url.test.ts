import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH } from '../../../src/modules/webhooks/webhook-url';

describe('webhook URL rules', () => {
  const accepted: [string, string][] = [
    ['https://hooks.example.com/mail', 'https://hooks.example.com/mail'],
    ['http://hooks.example.com:8080/a?b=c', 'http://hooks.example.com:8080/a?b=c'],
    ['HTTPS://Hooks.Example.COM', 'https://hooks.example.com/'],
    ['http://127.0.0.1:3000/hook', 'http://127.0.0.1:3000/hook'],
    ['http://[::1]:3000/hook', 'http://[::1]:3000/hook'],
    // The WHATWG parser folds numeric hosts, so the guard sees the real address.
    ['http://2130706433/', 'http://127.0.0.1/'],
  ];
  for (const [raw, href] of accepted) {
    it(`accepts ${raw}`, () => {
      const check = checkWebhookUrl(raw);
      assert.ok(check.ok);
      assert.equal(check.href, href);
    });
  }

  const refused: [string, RegExp][] = [
    ['ftp://example.com/x', /https or http/],
    ['file:///etc/passwd', /https or http/],
    ['javascript:alert(1)', /https or http/],
    ['/relative/path', /absolute URL/],
    ['not a url', /absolute URL/],
    ['https://user:pass@example.com/', /credentials/],
    ['https://user@example.com/', /credentials/],
    ['https://example.com/#frag', /fragment/],
    [`https://example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH)}`, /at most/],
  ];
  for (const [raw, message] of refused) {
    it(`refuses ${raw.slice(0, 40)}`, () => {
      const check = checkWebhookUrl(raw);
      assert.equal(check.ok, false);
      if (!check.ok) assert.match(check.message, message);
    });
  }
});
