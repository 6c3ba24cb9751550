/**
 * Where a base URL can be reached from (src/layout/base-url-reach.ts): Claude Code's rule for the
 * plugin zips of a marketplace added by URL (HTTPS, not loopback, link-local or cloud metadata;
 * each case below was installed with Claude Code 2.1.330 on 2026-11-29, issue 57 point 3), and
 * whether an address names this machine.
 */
import { describe, expect, it } from 'vitest';
import { claudeTakesArchivesFrom, namesThisMachine } from '../../src/layout/base-url-reach.js';

describe('claudeTakesArchivesFrom', () => {
  it.each([
    // Refused by Claude Code: "Archive URLs must use https:// and must not point at a loopback, link-local, or cloud-metadata host".
    ['http://catalogue.example', false],
    ['http://localhost:8787', false],
    ['https://localhost:8787', false],
    ['https://foo.localhost', false],
    ['https://127.0.0.1:8443', false],
    ['https://127.0.0.2', false],
    ['https://0.0.0.0', false],
    ['https://2130706433', false],
    ['https://[::1]:8443', false],
    ['https://[::ffff:127.0.0.1]', false],
    ['https://169.254.1.1', false],
    ['https://[fe80::1]', false],
    ['https://metadata.goog', false],
    ['https://metadata.google.internal.', false],
    ['https://100.100.100.200', false],
    ['https://168.63.129.16', false],
    ['https://[fd00:ec2::254]', false],
    ['not a url', false],
    // Taken: public and private hosts over HTTPS.
    ['https://catalogue.example', true],
    ['https://loadouts.acme.dev:8443/catalogue', true],
    ['https://192.0.2.2:43210', true],
    ['https://10.0.0.1', true],
    ['https://192.168.1.1', true],
    ['https://172.16.0.1', true],
    ['https://100.64.0.1', true],
    ['https://[fc00::1]', true],
    ['https://intranet', true],
  ])('%s → %s', (url, taken) => {
    expect(claudeTakesArchivesFrom(url)).toBe(taken);
  });
});

describe('namesThisMachine', () => {
  it.each([
    ['http://localhost:8787', true],
    ['http://127.0.0.1:18555', true],
    ['https://app.localhost', true],
    ['http://[::1]:8787', true],
    ['http://0.0.0.0:8787', true],
    ['http://10.0.0.5:8787', false],
    ['http://192.0.2.2:8787', false],
    ['https://catalogue.example', false],
    ['localhost', false],
  ])('%s → %s', (url, local) => {
    expect(namesThisMachine(url)).toBe(local);
  });
});
